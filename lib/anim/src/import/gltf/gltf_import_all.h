/* Everything import.h builds from one opened glTF document, in one call: the
 * skeletons (node skeletons of the root nodes for a document without skins),
 * skins, influences of every skinned primitive, morph targets of every
 * primitive that has them and every animation as a clip of each skeleton it
 * animates, with the given options. `maul import`, `maul bench import`, the
 * conformance suite "gltf" and fuzz/gltf_build_fuzzer.c share it, so they
 * build the same items in the same order. Not part of the library: no public
 * header, offline tools and tests only. */
#ifndef MAUL_ANIM_SRC_IMPORT_GLTF_GLTF_IMPORT_ALL_H
#define MAUL_ANIM_SRC_IMPORT_GLTF_GLTF_IMPORT_ALL_H

#include <stddef.h>
#include <stdint.h>

#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an item is. */
typedef enum mani_GltfItemKind {
    mani_gltfItemSkeleton = 0,     /* maniBuildGltfSkeleton (index: the skeleton) */
    mani_gltfItemNodeSkeleton = 1, /* maniBuildGltfNodeSkeleton of a root node (index: the node) */
    mani_gltfItemSkin = 2,         /* maniBuildGltfSkin (index: the skin) */
    mani_gltfItemInfluences = 3,   /* maniBuildGltfInfluences (index: the mesh, primitive: the primitive) */
    mani_gltfItemMorph = 4,        /* maniBuildGltfMorphTargets (index: the mesh, primitive: the primitive) */
    mani_gltfItemClip = 5          /* maniBuildGltfClip (index: the animation, skeleton: the skeleton item) */
} mani_GltfItemKind;

/* One built (or refused) item, valid during the callback only. */
typedef struct mani_GltfItem {
    uint32_t kind;        /* mani_GltfItemKind */
    uint32_t index;       /* as the kind says */
    uint32_t primitive;   /* influences and morph targets: the primitive; 0 otherwise */
    uint32_t skeleton;    /* skins and clips: the ordinal of the skeleton item they are built against */
    const char* name;     /* the root's bone name, the skin's, mesh's or animation's name (may be empty) */
    size_t nameLength;
    uint32_t count;       /* bones, joints, vertices, morph channels, or a clip's bound channels */
    maniImportResult result;
    const void* file;     /* the built file (MANI_FILE_ALIGNMENT aligned), NULL when refused */
    size_t size;          /* its bytes */
    uint64_t identity;    /* skeletons, skins and clips: the file's identity; the others: maniHash64 of the bytes */
    const maniSkeleton* skeletonView; /* the skeleton the item is (skeletons) or is built against (clips), or NULL */
    const maniClip* clip;             /* clips: the opened clip; NULL otherwise */
    uint32_t channels;    /* clips: the animation's channels (count less this is the channels skipped) */
} mani_GltfItem;

/* Called once per item, in the order built. */
typedef void (*mani_GltfItemFn)(void* user, const mani_GltfItem* item);

/* Builds every item of the document (the order: skeletons, skins,
 * influences, morph targets, clips) into the builder and calls fn for each.
 * A clip is reported for each skeleton it binds a channel of; an animation
 * that binds none on any skeleton (or that fails) is reported once, against
 * the last skeleton tried. Returns the number of items refused, or
 * UINT32_MAX when memory for the built files ran out. */
uint32_t mani_GltfImportAll(maniBuilder* builder, const maniGltf* gltf, const maniGltfOptions* options,
                            const maniImportClipOptions* clipOptions, mani_GltfItemFn fn, void* user);

/* The kind's name in reports: "skeleton", "node-skeleton", "skin",
 * "influences", "morph", "clip". */
const char* mani_GltfItemKindName(uint32_t kind);

/* The reason's name in reports ("container", "json", ... "syntax"), "none"
 * for 0, "?" past the list. */
const char* mani_GltfImportReasonName(uint32_t reason);

#ifdef __cplusplus
}
#endif

#endif
