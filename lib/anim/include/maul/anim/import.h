/* Maul Anim: import.h
 *
 * glTF 2.0 import, offline: a document opened from JSON or GLB bytes the
 * caller keeps alive, its external buffers supplied by the host, then
 * skeletons, skins, influences, morph targets and clips built from it into a
 * builder (build.h). Built only with the offline side (MAUL_ANIM_OFFLINE).
 *
 * Import results (maniImportResult, base.h) carry a reason, an item and an
 * offset. The reasons, as this header's functions use them:
 *   maniImportReasonContainer   the GLB header or chunks are wrong (offset:
 *                               the first wrong byte of the bytes given);
 *   maniImportReasonJson        the JSON text does not parse (offset: the
 *                               first wrong byte, counted from the start of
 *                               the bytes given, so inside the JSON chunk of
 *                               a GLB);
 *   maniImportReasonProperty    a property missing, of the wrong type, out of
 *                               range or naming an object past its array
 *                               (offset: the value's first byte in the
 *                               bytes given; item as each function says);
 *   maniImportReasonUnsupported a required extension the importer cannot
 *                               honour (item: its index in
 *                               extensionsRequired, offset: its string);
 *   maniImportReasonBuffer      a buffer whose bytes are missing or too few
 *                               (item: the buffer);
 *   maniImportReasonData        bytes of a buffer refused: a compressed
 *                               stream the decoder refuses (item: the view,
 *                               offset: in its buffer), a sparse index out
 *                               of range or not increasing (item: the
 *                               accessor, offset: in its buffer), keys the
 *                               clip builder refuses (item: the channel);
 *   maniImportReasonBone        a node that cannot be a bone (a joint the
 *                               skeleton lacks);
 *   maniImportReasonMatrix      a matrix that does not decompose into
 *                               translation, rotation and scale, or is not
 *                               invertible;
 *   maniImportReasonName        a name refused (past MANI_MAX_NAME_BYTES
 *                               once renamed, or repeated among float
 *                               tracks);
 *   maniImportReasonBuild       the builder refused what the import made
 *                               (item: its maniBuildReason);
 *   maniImportReasonIndex       an index in the data past what it indexes
 *                               (a vertex index past the vertices, a morph
 *                               target's sparse index past the vertices);
 *   maniImportReasonPending     data in an external buffer not supplied yet
 *                               (item: the buffer);
 *   maniImportReasonInfluence   a vertex influence refused (a weight below 0
 *                               or not finite, a joint index past the skin's
 *                               joints);
 *   maniImportReasonVersion     asset.version not 2.x, or a minVersion past
 *                               2.0 (offset: the string), FBX versions;
 *   maniImportReasonSyntax      FBX ASCII text that does not parse.
 * Outside maniImportReasonBuild the offset is 0 where no byte is to blame.
 *
 * Supported extensions. Required extensions (extensionsRequired) are
 * honoured for EXT_meshopt_compression, KHR_meshopt_compression
 * (decoded at open), KHR_mesh_quantization (every component type read),
 * KHR_animation_pointer (pointer channels) and KHR_draco_mesh_compression
 * (accepted at open; a Draco primitive's stream is decoded, by Maul's own
 * decoder, when its influences or morph targets are built; a stream it
 * refuses gives maniImportReasonData at its view). Required extensions
 * that change only what the importer never reads are accepted too:
 * KHR_texture_transform, KHR_texture_basisu,
 * EXT_texture_webp, EXT_texture_avif, KHR_materials_* and KHR_lights_punctual.
 * Every other required extension is refused with maniImportReasonUnsupported
 * (EXT_mesh_gpu_instancing among them: it places meshes the importer would
 * leave out). Extensions that are used but not required are ignored unless
 * a function says it reads them.
 *
 * Skeletons. A skin's joints' hierarchy is the set of nodes made of its
 * joints, their common root (the lowest node every joint is, or descends
 * from, in the node tree; a joint itself when the others descend from it)
 * and every node on the path from each joint up to that root. Joints in
 * separate trees of the node forest have no common root: each tree's share
 * is then the joints in it, their lowest common node in that tree and the
 * nodes between. skin.skeleton is not used. Skins whose hierarchies share a
 * node (directly, or through a chain of skins that share nodes) make one
 * skeleton, whose nodes are the union of their hierarchies; skeletons are
 * numbered in the order of their lowest skin.
 *
 * Bone names. Every node has a bone name, the same in every skeleton, skin
 * and clip built from the document: its name, or, when it has none (or an
 * empty one) or an earlier node's bone name is the same (compared after JSON
 * escapes, byte for byte), the name followed by '#' and the node's index in
 * decimal ("#7" for an unnamed node 7, "Hand#12" for a repeated "Hand"); in
 * the rare case that this too is an earlier node's bone name, '#' and the
 * index are appended again until it is not, so bone names are unique.
 *
 * Basis change (maniGltfOptions). glTF's basis is +Y up, +Z the front a
 * model faces, +X its left, lengths in metres. The options give the output
 * axes glTF's up and front become; glTF's +X becomes up x front, so the
 * change is a rotation R (the output stays right-handed), times unitScale
 * for lengths: B = unitScale R. Every local transform is conjugated by it
 * (translations turned and scaled, rotations turned, scales' components
 * permuted), so model transforms become B W B^-1; inverse binds likewise;
 * positions and morph offsets are turned and scaled, normals and tangents
 * turned. The placement is B times the product of the nodes above the root,
 * times B^-1.
 */
#ifndef MAUL_ANIM_IMPORT_H
#define MAUL_ANIM_IMPORT_H

#include "maul/anim/build.h"
#include "maul/anim/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -- Types ------------------------------------------------------------------------ */

/* An opened glTF document: made by maniOpenGltf, freed by maniCloseGltf. It
 * allocates through the builder it was opened with, which must outlive it. */
typedef struct maniGltf maniGltf;

/* An axis of the output basis, signed. */
typedef enum maniAxis {
    maniAxisPositiveX = 0,
    maniAxisNegativeX = 1,
    maniAxisPositiveY = 2,
    maniAxisNegativeY = 3,
    maniAxisPositiveZ = 4,
    maniAxisNegativeZ = 5
} maniAxis;

/* The value of maniGltfOptions' two cookies, set by maniDefaultGltfOptions. */
#define MANI_GLTF_OPTIONS_COOKIE 0x4D474F50u /* "MGOP" */

/* The value of maniImportClipOptions' two cookies, set by
 * maniDefaultImportClipOptions. */
#define MANI_IMPORT_CLIP_OPTIONS_COOKIE 0x4D49434Fu /* "MICO" */

/* How a glTF document becomes Maul data: the basis change and where the
 * skeleton's placement goes. Make one with maniDefaultGltfOptions, then
 * change the settings; the cookies (at both ends) and abiVersion are the
 * function's. Options out of range (below) are mani_errorInvalid. */
typedef struct maniGltfOptions {
    uint32_t cookie;        /* MANI_GLTF_OPTIONS_COOKIE */
    uint32_t abiVersion;    /* MANI_ABI_VERSION of the headers the options were made with */
    uint32_t up;            /* maniAxis glTF's +Y becomes; default maniAxisPositiveY */
    uint32_t front;         /* maniAxis glTF's +Z becomes, perpendicular to up; default maniAxisPositiveZ */
    float unitScale;        /* output units per metre (100 for centimetres); finite, above 0; default 1 */
    uint32_t foldPlacement; /* 1: the nodes above a skeleton's root are composed into the root (its rest and
                               every clip sample), the placement then identity; 0 (default): they are left out
                               and maniGltf_GetSkeletonPlacement gives them */
    uint32_t reserved[2];   /* 0 */
    uint32_t cookieEnd;     /* MANI_GLTF_OPTIONS_COOKIE */
} maniGltfOptions;

/* How an animation becomes a clip (maniBuildGltfClip, maniBuildFbxClip).
 * Make one with maniDefaultImportClipOptions, then change the settings; the
 * cookies (at both ends) and abiVersion are the function's. */
typedef struct maniImportClipOptions {
    uint32_t cookie;          /* MANI_IMPORT_CLIP_OPTIONS_COOKIE */
    uint32_t abiVersion;      /* MANI_ABI_VERSION of the headers the options were made with */
    float sampleRate;         /* samples per second of the clip's grid, finite, 0 or above; 0 (default): the
                                 keys' own rate, the reciprocal of the shortest interval between two keys of
                                 any channel rounded to the nearest whole number and held to [1, 240] (30 for
                                 an animation without two keys in a channel) */
    uint32_t loop;            /* maniLoopPolicy; default maniLoopClamp */
    uint32_t additive;        /* maniAdditiveBasis; default maniAdditiveNone */
    uint32_t rootMotionBone;  /* the skeleton's bone root motion is taken from, or MANI_NO_BONE (default) for
                                 none; below the skeleton's bone count */
    uint32_t rootMotionFlags; /* MANI_ROOT_MOTION_... flags (rootmotion.h) when rootMotionBone is a bone: at
                                 least one, not both rotation flags; ignored without a bone; default 0 */
    uint32_t reserved;        /* 0 */
    uint32_t cookieEnd;       /* MANI_IMPORT_CLIP_OPTIONS_COOKIE */
} maniImportClipOptions;

/* -- Options ---------------------------------------------------------------------- */

/* Returns clip options with every setting at its default (the keys' own
 * rate, clamped, not additive, no root motion), with valid cookies and the
 * headers' ABI version. Safe from any thread. */
static inline maniImportClipOptions maniDefaultImportClipOptions(void) {
    maniImportClipOptions o;
    o.cookie = MANI_IMPORT_CLIP_OPTIONS_COOKIE;
    o.abiVersion = MANI_ABI_VERSION;
    o.sampleRate = 0.0f;
    o.loop = (uint32_t)maniLoopClamp;
    o.additive = (uint32_t)maniAdditiveNone;
    o.rootMotionBone = MANI_NO_BONE;
    o.rootMotionFlags = 0;
    o.reserved = 0;
    o.cookieEnd = MANI_IMPORT_CLIP_OPTIONS_COOKIE;
    return o;
}

/* Returns glTF options with every setting at its default (glTF's own basis
 * and unit, placement not folded), with valid cookies and the headers' ABI
 * version. Safe from any thread. */
static inline maniGltfOptions maniDefaultGltfOptions(void) {
    maniGltfOptions o;
    o.cookie = MANI_GLTF_OPTIONS_COOKIE;
    o.abiVersion = MANI_ABI_VERSION;
    o.up = (uint32_t)maniAxisPositiveY;
    o.front = (uint32_t)maniAxisPositiveZ;
    o.unitScale = 1.0f;
    o.foldPlacement = 0;
    o.reserved[0] = 0;
    o.reserved[1] = 0;
    o.cookieEnd = MANI_GLTF_OPTIONS_COOKIE;
    return o;
}

/* Options and clip options are checked in this order: the cookies
 * (mani_errorInvalid), the ABI version (mani_errorVersion), then every
 * setting (mani_errorInvalid: an axis past maniAxisNegativeZ, up and front
 * on one line, a scale not finite or not above 0, foldPlacement above 1,
 * reserved not 0; a rate not finite or below 0, a loop or basis out of
 * range, a root motion bone past the skeleton, root motion flags 0, past
 * MANI_ROOT_MOTION_ALL_FLAGS or with both rotation flags). */

/* -- Documents -------------------------------------------------------------------- */

/* Opens a glTF document from JSON or GLB bytes (told apart by GLB's magic
 * "glTF"), checking the container, the asset version, required extensions,
 * buffers, buffer views and accessors. data: buffers are decoded into the
 * document; external buffers wait for maniGltf_SupplyBuffer. Buffer views
 * compressed by EXT_meshopt_compression or KHR_meshopt_compression are
 * decoded into the document once their streams' buffers are present (here
 * for GLB and data: ones); a refused stream gives maniImportReasonData at
 * its offset in its buffer, the view as the item. The bytes must stay alive
 * and unchanged until the close (the document reads names and GLB data in
 * place).
 *
 * GLB: a 12-byte header (magic, version 2, length at most the size; bytes
 * past the length are ignored), a JSON chunk first, a BIN chunk optional
 * second, chunk lengths within the length, chunks 4-byte aligned; other
 * chunks after them skipped (Container otherwise). JSON: UTF-8 without a byte
 * order mark, strict (lib/core's reader), an object. asset.version "2.x"
 * (Version otherwise), minVersion at most "2.0". Checked at the open, with
 * Property and the object's index as the item: buffers (byteLength at least
 * 1, a data: URI in base64 (";base64," before the data; Property
 * otherwise) that decodes to at least byteLength bytes (Buffer otherwise), a
 * buffer without URI only GLB's first with a BIN chunk at least byteLength
 * long (Buffer otherwise), or one only compressed views use; a view on a
 * buffer never read is Buffer, item the buffer), buffer views (a buffer in range,
 * byteOffset + byteLength within the buffer, byteStride 4 to 252 and a
 * multiple of 4, target 34962 or 34963), accessors (a view in range or none,
 * componentType one of glTF's six, normalized only for 8 and 16-bit types,
 * type one of the seven, count at least 1, byteOffset a multiple of the
 * component size, the last element within the view with its stride, min and
 * max of the type's component count, sparse count at least 1 and at most the
 * count, sparse indices' type unsigned and their and the values' ranges
 * within their views; sparse indices in held buffers below the count and
 * increasing, Data with the accessor as item and the index's offset in its
 * buffer; in external buffers they are checked when supplied), meshopt views
 * (the extension's buffer, byteLength, byteStride, count and mode present,
 * mode and filter names of the specification, the stream inside its buffer,
 * count times byteStride covering the view), nodes (children in range, no node a child twice or of
 * itself, no cycle; matrix of 16 numbers or TRS with 3, 4 and 3, not both;
 * mesh and skin in range, a skin only with a mesh), skins (joints in range,
 * at least one, none twice; inverseBindMatrices a MAT4 float accessor of at
 * least the joints' count), meshes (primitives at least one, attributes and
 * targets of accessors in range), animations (channels' samplers in range,
 * targets' nodes in range, a path, KHR_animation_pointer only on path
 * "pointer" and there with a pointer of JSON pointer syntax, samplers' input
 * a SCALAR FLOAT accessor and output an accessor in range, interpolation
 * LINEAR, STEP or CUBICSPLINE; other paths are kept and skipped by the
 * clips). Primitives of one mesh must have as many morph targets. Objects the importer does not
 * read (images, materials, cameras, ...) are not checked. Numbers past
 * binary32 where glTF holds floats are Property.
 *
 * Returns mani_success with *gltfOut the document; mani_errorInvalid for a
 * NULL argument (a misuse when the builder is there); mani_errorBusy when
 * called back in from the builder's allocator (a misuse); mani_errorFormat
 * with a reason, an offset and an item; mani_errorCapacity when the
 * allocator fails. *gltfOut is unchanged on failure. Safe from any thread;
 * the builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniOpenGltf(maniBuilder* builder, const void* bytes, size_t size,
                                                      maniGltf** gltfOut);

/* Closes a document and frees its memory. NULL is allowed. The document
 * reads as empty from the moment the close begins, so the builder's free
 * hook, which runs during the close, finds no nodes, no names and no data in
 * it. Called back in from the builder's allocator, it closes nothing and
 * counts one misuse on the builder. Safe from any thread; the document is
 * used by one thread at a time. */
MANI_API void maniCloseGltf(maniGltf* gltf);

/* Returns the number of buffers (0 for NULL). Safe from any thread. */
MANI_API uint32_t maniGltf_GetBufferCount(const maniGltf* gltf);

/* Returns an external buffer's URI, as the JSON gives it after its escapes
 * (a URI reference relative to the document; percent escapes are left to
 * the host, which resolves it), with its length in *lengthOut (when not
 * NULL; 0 on NULL returns), or NULL for a buffer the document holds (GLB or
 * data:), one it never reads (a meshopt fallback, or a buffer without a URI
 * that only compressed views use) or past the count. The URI is UTF-8 and
 * not terminated. A supplied buffer still gives its URI. Safe from any
 * thread. */
MANI_API const char* maniGltf_GetBufferUri(const maniGltf* gltf, uint32_t buffer, size_t* lengthOut);

/* Supplies an external buffer's bytes, which the caller keeps alive and
 * unchanged while the document is open. They must hold the buffer's
 * byteLength; bytes past it are ignored. Meshopt streams in them are decoded
 * into the document (a stream whose source buffer is another external one
 * not yet supplied waits for it); when one is refused the buffer is left
 * unsupplied. Supplying a buffer again replaces the bytes (its views decoded
 * again).
 * Returns mani_success; mani_errorInvalid for a NULL argument (bytes NULL
 * with a size above 0 or a byteLength above 0) or a buffer that is not
 * external (past the count, held, or never read); mani_errorFormat with
 * maniImportReasonBuffer (item the buffer) for too few bytes, or
 * maniImportReasonData for a refused stream (item the view, offset in its
 * buffer); mani_errorCapacity when the allocator fails (the buffer left
 * unsupplied); mani_errorBusy when called back in from the builder's
 * allocator, which the document shares (one misuse counted on the builder).
 * Safe from any thread; the document is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniGltf_SupplyBuffer(maniGltf* gltf, uint32_t buffer, const void* bytes,
                                                               size_t size);

/* -- Skeletons and nodes ---------------------------------------------------------- */

/* Returns the number of skeletons the document's skins make: skins sharing
 * any node of their joints' hierarchy (above) share one, numbered by their
 * lowest skin. 0 for NULL. Safe from any thread. */
MANI_API uint32_t maniGltf_GetSkeletonCount(const maniGltf* gltf);

/* Returns the number of skins (0 for NULL). Safe from any thread. */
MANI_API uint32_t maniGltf_GetSkinCount(const maniGltf* gltf);

/* Returns the skeleton a skin is part of, or UINT32_MAX for a skin past the
 * count (or NULL). Safe from any thread. */
MANI_API uint32_t maniGltf_GetSkinSkeleton(const maniGltf* gltf, uint32_t skin);

/* Returns the number of nodes (0 for NULL). Safe from any thread. */
MANI_API uint32_t maniGltf_GetNodeCount(const maniGltf* gltf);

/* Builds a skeleton of the document into the builder: its skins' joints,
 * their common root and the nodes between (its nodes, above), named by
 * their bone names, each bone's rest its node's local transform (TRS, or its
 * matrix decomposed) with the basis change applied, the root's with the
 * nodes above it composed in when the options fold the placement.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a skeleton
 * past the count or options out of range; mani_errorFormat with a reason
 * (Matrix, item the node, for a matrix that does not decompose; Name for a
 * bone name past MANI_MAX_NAME_BYTES; Build with the build reason as item);
 * mani_errorCapacity when the allocator fails. Safe from any thread; the
 * builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildGltfSkeleton(maniBuilder* builder, const maniGltf* gltf,
                                                               uint32_t skeleton, const maniGltfOptions* options);

/* Builds a node's subtree (the node and every descendant) as a skeleton,
 * for rigid hierarchies, as maniBuildGltfSkeleton builds one.
 * Returns as maniBuildGltfSkeleton, a node past the count for a skeleton
 * past it. Safe from any thread; the builder is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildGltfNodeSkeleton(maniBuilder* builder, const maniGltf* gltf,
                                                                   uint32_t node, const maniGltfOptions* options);

/* Returns a skeleton's placement in *placementOut: the product of the local
 * transforms of the nodes above its root (identity for a root at the top),
 * the basis change applied; identity when the options fold it into the
 * root. Returns mani_success; mani_errorInvalid as maniBuildGltfSkeleton;
 * mani_errorFormat (Matrix, item the node) for a node above the root whose
 * matrix is refused. *placementOut is unchanged on failure. Safe from any
 * thread. */
MANI_NODISCARD MANI_API maniImportResult maniGltf_GetSkeletonPlacement(const maniGltf* gltf, uint32_t skeleton,
                                                                       const maniGltfOptions* options,
                                                                       maniAffine* placementOut);

/* Builds a skin into the builder against an opened skeleton: each joint
 * found by its bone name, the inverse binds read (identity when the skin has
 * none) and the basis change applied.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a skin past
 * the count or options out of range; mani_errorFormat with a reason (Bone,
 * item the joint, for a joint the skeleton lacks; Matrix for an inverse bind
 * not affine; Pending; Build); mani_errorCapacity when the allocator fails.
 * Safe from any thread; the builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildGltfSkin(maniBuilder* builder, const maniGltf* gltf, uint32_t skin,
                                                           const maniSkeleton* skeleton,
                                                           const maniGltfOptions* options);

/* Returns the bone name a node has in every skeleton, skin and clip built
 * from the document (above: its name, or that name followed by # and the
 * node index when it has none or an earlier node has the same), with its
 * length in *lengthOut (when not NULL; 0 on NULL returns). UTF-8, not
 * terminated; NULL past the count. Safe from any thread. */
MANI_API const char* maniGltf_GetNodeBoneName(const maniGltf* gltf, uint32_t node, size_t* lengthOut);

/* Returns the number of nodes whose bone name is not their name as given:
 * unnamed, or named as an earlier node. Their names follow the node index,
 * so a host binding by name across exports can warn or keep its own map.
 * 0 for NULL. Safe from any thread. */
MANI_API uint32_t maniGltf_GetRenamedCount(const maniGltf* gltf);

/* Returns a renamed node, in node order, or UINT32_MAX past the count. Safe
 * from any thread. */
MANI_API uint32_t maniGltf_GetRenamedNode(const maniGltf* gltf, uint32_t index);

/* -- Animations ------------------------------------------------------------------- */

/* Returns the number of animations (0 for NULL). Safe from any thread. */
MANI_API uint32_t maniGltf_GetAnimationCount(const maniGltf* gltf);

/* Returns an animation's name, UTF-8 and not terminated, after its JSON
 * escapes, with its length in *lengthOut (when not NULL; 0 on NULL
 * returns); empty (not NULL) for an animation without one; NULL past the
 * count. Safe from any thread. */
MANI_API const char* maniGltf_GetAnimationName(const maniGltf* gltf, uint32_t animation, size_t* lengthOut);

/* Builds one animation as a clip of an opened skeleton: translation,
 * rotation and scale channels on its bones (found by name), morph weights of
 * its bones and of meshes it skins, and KHR_animation_pointer channels to
 * anything but nodes, each as float tracks; the basis change applied and,
 * with placement folded, the nodes above the root composed in. The duration
 * is the animation's latest key over every channel. The clip's root motion,
 * if any, is taken out as maniBuildClip takes it. *boundOut (when not NULL)
 * receives the number of the animation's channels the clip holds (on a bone
 * or as a float track); the others (nodes not in the skeleton, paths not
 * read) are skipped.
 * Returns mani_success; mani_errorInvalid for a NULL argument, an animation
 * past the count, options out of range, or a clip setting out of range (a
 * rate not finite or negative, a loop, basis or root motion source field out
 * of range, a root motion bone past the skeleton); mani_errorFormat with a
 * reason (Data with the channel as item for keys the clip builder refuses;
 * Property with the channel as item and the accessor's JSON as offset for a
 * sampler whose input is not SCALAR or whose output's type or count does not
 * fit its keys; Pending, item the buffer, for keys in an external buffer not
 * supplied yet; Build with the build reason as item for anything else it
 * refuses, such as a root motion bone the animation leaves without a track);
 * mani_errorCapacity when the allocator fails. Safe from any thread; the
 * builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildGltfClip(maniBuilder* builder, const maniGltf* gltf,
                                                           uint32_t animation, const maniSkeleton* skeleton,
                                                           const maniGltfOptions* options,
                                                           const maniImportClipOptions* clipOptions,
                                                           uint32_t* boundOut);

/* -- Meshes ----------------------------------------------------------------------- */

/* Returns the number of meshes in the document (0 for NULL). Safe from any
 * thread. */
MANI_API uint32_t maniGltf_GetMeshCount(const maniGltf* gltf);

/* Returns the number of primitives a mesh has; 0 for a mesh past the count
 * or one whose primitives are not an array. Safe from any thread. */
MANI_API uint32_t maniGltf_GetPrimitiveCount(const maniGltf* gltf, uint32_t mesh);

/* Returns the number of morph targets a mesh primitive has; 0 for none or
 * past a count. Safe from any thread. */
MANI_API uint32_t maniGltf_GetPrimitiveTargetCount(const maniGltf* gltf, uint32_t mesh, uint32_t primitive);

/* Returns the mesh a node instances, or UINT32_MAX for none or a node past
 * the count. Safe from any thread. */
MANI_API uint32_t maniGltf_GetNodeMesh(const maniGltf* gltf, uint32_t node);

/* Returns the skin that deforms a node's mesh (the node's skin), or
 * UINT32_MAX for none or a node past the count. Safe from any thread. */
MANI_API uint32_t maniGltf_GetNodeSkin(const maniGltf* gltf, uint32_t node);

/* Reads the morph weights a node's mesh starts with: the node's weights,
 * else its mesh's, else zeros, one per morph target of the mesh's first
 * primitive. Call it with a NULL array and capacity 0 to measure.
 * Returns mani_success with *countOut (when not NULL) the target count;
 * mani_errorCapacity when capacity is below the target count, with the count
 * still written and the array zeroed; mani_errorInvalid for a NULL document,
 * a NULL array with a positive capacity, or a node past the count, without a
 * mesh or whose mesh has no morph targets; mani_errorFormat (Property, item
 * the node, or the mesh with offset at its weights) for weights not an array
 * of that many numbers within binary32. The array is unchanged on the other
 * failures. Safe from any thread. */
MANI_NODISCARD MANI_API maniImportResult maniGltf_GetMorphWeights(const maniGltf* gltf, uint32_t node,
                                                                  float* weightsOut, uint32_t capacity,
                                                                  uint32_t* countOut);

/* Builds a primitive's influences into the builder, bound to an opened skin
 * built from the glTF skin that deforms it (its joints in the skin's order):
 * every JOINTS_n and WEIGHTS_n set read (normalized integer weights as glTF
 * defines them), zero weights dropped, then sorted and renormalized as
 * maniBuildInfluences does. A primitive KHR_draco_mesh_compression
 * compresses has its stream decoded: the sets the extension names are read
 * from it, in the stream's vertex order, each accessor matching the decoded
 * attribute (its count, component type and component count; its normalized
 * decides the values, Draco's own flag is not read); the others are read
 * from their views.
 * Returns mani_success; mani_errorInvalid for a NULL argument or a mesh or
 * primitive past its count; mani_errorFormat with a reason: Property (no
 * JOINTS_0, sets not paired, an accessor of the wrong type or count; a Draco
 * extension without its view or attributes, a name it gives not among the
 * primitive's, a unique id not in the stream, an accessor not matching its
 * attribute), Influence (a weight below 0 or not finite, or a joint past the
 * skin's joints), Data (a
 * Draco stream the decoder refuses, at its view), Pending, Build;
 * mani_errorCapacity when the allocator fails. Safe from any thread; the
 * builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildGltfInfluences(maniBuilder* builder, const maniGltf* gltf,
                                                                 uint32_t mesh, uint32_t primitive,
                                                                 const maniSkin* skin);

/* Builds a primitive's morph targets into the builder: a channel a target,
 * at full weight 1, named by the mesh's extras.targetNames when it names
 * every target and by the target's index otherwise (weight tracks are the
 * node's bone name, a slash and that name); positions, normals, tangents,
 * texture coordinate and color sets read (other semantics left), positions,
 * normals and tangents in the output's basis, VEC3 colors with alpha 0; a
 * target keeps the vertices it moves. A primitive KHR_draco_mesh_compression
 * compresses is read the same way: Draco never holds its targets.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a mesh or
 * primitive past its count, a primitive without targets or options out of
 * range; mani_errorFormat with a reason: Property (a semantic the primitive
 * lacks, an accessor of the wrong type or count, more than 32 attributes),
 * Index, Data, Pending, Build; mani_errorCapacity when the allocator fails.
 * Safe from any thread; the builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildGltfMorphTargets(maniBuilder* builder, const maniGltf* gltf,
                                                                   uint32_t mesh, uint32_t primitive,
                                                                   const maniGltfOptions* options);

/* -- FBX documents ------------------------------------------------------------------ */

/* An opened FBX document, binary or ASCII: made by maniOpenFbx, freed by
 * maniCloseFbx. It keeps the bytes it was opened from (the caller keeps them
 * alive) and allocates through the builder it was opened with, which must
 * outlive it.
 *
 * What maniOpenFbx checks. Binary: the 27-byte header ("Kaydara FBX Binary",
 * two spaces, a zero, 0x1A, the byte order at byte 22: 0 little-endian, 1
 * big-endian, the version at 23), then every record: its end offset, property
 * count, property list length (32-bit each before version 7500, 64-bit from
 * 7500) and name inside the bytes, each property's type code and length
 * inside the property list, the list's length the sum of its properties,
 * arrays' encoding 0 (raw, count times the element's size) or 1 (deflated:
 * the inflated size, count times the element's size, at most 1032 times the
 * compressed length plus 64, a deflate bomb refused before anything is
 * sized), children ending with a null record exactly at the end offset,
 * nesting at most MANI_FBX_MAX_DEPTH deep; a wrong one is
 * maniImportReasonContainer at its first byte. ASCII: comments (';' to the
 * end of the line), keys ("Name:"), values (numbers, with infinities and NaNs
 * in the forms exporters write; quoted strings; one-letter words such as T
 * and Y; "*N" array counts), comma separated, braces nesting at most
 * MANI_FBX_MAX_DEPTH deep; a wrong one is maniImportReasonSyntax at its first
 * byte (an unclosed string at its opening quote). The version: binary, the
 * header's, replaced by FBXHeaderExtension/FBXVersion when the file has it;
 * ASCII, the header comment's "; FBX x.y.z project file" (x*1000 + y*100 +
 * z*10), else FBXVersion, else 7400; outside 3000 to 7700 it is
 * maniImportReasonVersion at the number. Models' parents (the first
 * object-object connection from a model to a model: 7.x "C" by id, 6.x
 * "Connect" by name, the legacy layout's "Children" names) making a cycle
 * are maniImportReasonProperty, item the cycle's lowest model, offset the
 * record linking it to its parent. No array is decoded and no number is
 * converted by the open beyond object ids. */
typedef struct maniFbx maniFbx;

/* The deepest record nesting maniOpenFbx reads (top-level records are depth
 * 1); deeper is refused. */
#define MANI_FBX_MAX_DEPTH 64u

/* The value of maniFbxOptions' two cookies, set by maniDefaultFbxOptions. */
#define MANI_FBX_OPTIONS_COOKIE 0x4D464F50u /* "MFOP" */

/* A scene's settings as the file gives them (GlobalSettings' properties),
 * FBX's defaults where it is silent or gives axes that do not make a basis. */
typedef struct maniFbxSettings {
    uint32_t right;      /* maniAxis of the file's right (CoordAxis, CoordAxisSign); default maniAxisPositiveX */
    uint32_t up;         /* maniAxis of the file's up (UpAxis, UpAxisSign); default maniAxisPositiveY */
    uint32_t front;      /* maniAxis of the file's front (FrontAxis, FrontAxisSign); default maniAxisPositiveZ */
    float unitMetres;    /* metres a file unit: UnitScaleFactor / 100 (finite, above 0); default 0.01 */
    float frameRate;     /* frames a second: TimeMode's rate, CustomFrameRate for custom (14); default 30 */
    uint32_t timeMode;   /* TimeMode as the file gives it (0 to 18), 0 where absent or out of range */
    uint32_t fromFile;   /* MANI_FBX_SETTINGS_... flags: which of the above the file gave */
} maniFbxSettings;

/* maniFbxSettings.fromFile: the axes were read from the file. */
#define MANI_FBX_SETTINGS_AXES 1u
/* maniFbxSettings.fromFile: the unit was read from the file. */
#define MANI_FBX_SETTINGS_UNIT 2u
/* maniFbxSettings.fromFile: the frame rate was read from the file. */
#define MANI_FBX_SETTINGS_FRAME_RATE 4u

/* How an FBX document becomes Maul data: the axes the file's up and front
 * become, the output unit and where a skeleton's placement goes. Make one
 * with maniDefaultFbxOptions, then change the settings; the cookies (at both
 * ends) and abiVersion are the function's. Checked as maniGltfOptions are. */
typedef struct maniFbxOptions {
    uint32_t cookie;        /* MANI_FBX_OPTIONS_COOKIE */
    uint32_t abiVersion;    /* MANI_ABI_VERSION of the headers the options were made with */
    uint32_t up;            /* maniAxis the file's up (maniFbxSettings.up) becomes; default maniAxisPositiveY */
    uint32_t front;         /* maniAxis the file's front becomes, perpendicular to up; default maniAxisPositiveZ */
    float unitScale;        /* output units per metre (100 for centimetres); finite, above 0; default 1 */
    uint32_t foldPlacement; /* 1: the models above a skeleton's root are composed into the root, the
                               placement then identity; 0 (default): left out, the placement gives them */
    uint32_t reserved[2];   /* 0 */
    uint32_t cookieEnd;     /* MANI_FBX_OPTIONS_COOKIE */
} maniFbxOptions;

/* Returns FBX options with every setting at its default (Y up, Z front,
 * metres, placement not folded), with valid cookies and the headers' ABI
 * version. Safe from any thread. */
static inline maniFbxOptions maniDefaultFbxOptions(void) {
    maniFbxOptions o;
    o.cookie = MANI_FBX_OPTIONS_COOKIE;
    o.abiVersion = MANI_ABI_VERSION;
    o.up = (uint32_t)maniAxisPositiveY;
    o.front = (uint32_t)maniAxisPositiveZ;
    o.unitScale = 1.0f;
    o.foldPlacement = 0;
    o.reserved[0] = 0;
    o.reserved[1] = 0;
    o.cookieEnd = MANI_FBX_OPTIONS_COOKIE;
    return o;
}

/* Opens an FBX document from the bytes of a file, binary (told apart by its
 * magic, either byte order) or ASCII, versions 3000 to 7700, checking every
 * record, token and length against the bytes (maniFbx above); no array is
 * decoded and no number converted.
 * Returns mani_success with *fbxOut the document; mani_errorInvalid for a
 * NULL argument (a NULL bytes with a positive size); mani_errorBusy when
 * called back in from the builder's allocator; mani_errorFormat with a reason
 * (Container, Version, Syntax; Property for a parent cycle) and the offset of
 * the first byte found wrong;
 * mani_errorCapacity when the allocator fails. *fbxOut is unchanged on
 * failure. Safe from any thread; the builder is used by one thread at a
 * time. */
MANI_NODISCARD MANI_API maniImportResult maniOpenFbx(maniBuilder* builder, const void* bytes, size_t size,
                                                     maniFbx** fbxOut);

/* Closes an FBX document and frees its memory. NULL is allowed. The document
 * reads as empty from the moment the close begins, so the builder's free
 * hook, which runs during the close, finds nothing in it. Called back in from
 * the builder's allocator, it closes nothing and counts one misuse on the
 * builder. Safe from any thread; the document is used by one thread at a
 * time. */
MANI_API void maniCloseFbx(maniFbx* fbx);

/* Returns the document's version (7400 for FBX 7.4), 0 for NULL. Safe from
 * any thread. */
MANI_API uint32_t maniFbx_GetVersion(const maniFbx* fbx);

/* Returns the number of models (the objects of kind Model, in the order of
 * the file's Objects, then the top-level Model records of the legacy
 * layout), 0 for NULL. Safe from any thread. */
MANI_API uint32_t maniFbx_GetModelCount(const maniFbx* fbx);

/* Returns the bone name a model has in every skeleton, skin and clip built
 * from the document: its name without its class ("Model::" in ASCII and 6.x,
 * the "\0\1Model" after it in 7.x binary), or, when it has none or an
 * earlier model's bone name is the same (byte for byte), that name followed
 * by '#' and the model index in decimal, appended again until no earlier
 * model has it. The name is not terminated; NULL (length 0) past the count.
 * Safe from any thread. */
MANI_API const char* maniFbx_GetModelBoneName(const maniFbx* fbx, uint32_t model, size_t* lengthOut);

/* Returns the number of models whose bone names differ from their names, 0
 * for NULL. Safe from any thread. */
MANI_API uint32_t maniFbx_GetRenamedCount(const maniFbx* fbx);

/* Returns a renamed model, in model order; UINT32_MAX past the count. Safe
 * from any thread. */
MANI_API uint32_t maniFbx_GetRenamedModel(const maniFbx* fbx, uint32_t index);

/* How a skin blends its joints' transforms (maniFbx_GetSkinMethod). */
typedef enum maniSkinningMethod {
    maniSkinningLinear = 0,         /* linear blend skinning (maniSkinLinear) */
    maniSkinningDualQuaternion = 1, /* dual quaternion skinning (maniSkinDualQuaternion) */
    maniSkinningBlended = 2         /* per vertex between the two by the influences' blend weights */
} maniSkinningMethod;

/* Returns the number of skins (deformers of subclass Skin, in object order,
 * then the legacy layout's top-level mesh Models holding Link records, each
 * Link a cluster naming its bone, its class left out), 0 for NULL. Safe from
 * any thread. */
MANI_API uint32_t maniFbx_GetSkinCount(const maniFbx* fbx);

/* Returns the model whose mesh a skin deforms: the skin's geometry's model
 * (7.x: the connections skin to geometry to model), its own parent in 6.x
 * files (connected by name); UINT32_MAX for a skin past the count or one with
 * no mesh model; a legacy skin's is the Model holding its Links. Safe from
 * any thread. */
MANI_API uint32_t maniFbx_GetSkinModel(const maniFbx* fbx, uint32_t skin);

/* Returns how a skin blends its joints, as ufbx evaluates it: dual
 * quaternion for SkinningType DualQuaternion, blended for Blend or a skin
 * that gives per-vertex blend weights (a BlendWeights array), linear
 * otherwise (Rigid among them); linear for a skin past the count. Safe from
 * any thread. */
MANI_API maniSkinningMethod maniFbx_GetSkinMethod(const maniFbx* fbx, uint32_t skin);

/* Reads the scene's settings, FBX's defaults where the file is silent: X
 * right, Y up, Z front, a centimetre a unit, 30 frames a second. Read from
 * GlobalSettings' Properties70 (7.x) or Properties60 (6.x), at the top level
 * or inside Objects; axes taken only when the three make a basis (three
 * different axes, signs 1 or -1), the unit only when finite and above 0, a
 * custom rate only when finite and above 0.
 * Returns mani_success; mani_errorInvalid for a NULL argument (the settings
 * unchanged). Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniFbx_ReadSettings(const maniFbx* fbx, maniFbxSettings* settingsOut);

/* Returns the number of skeletons: skins' linked models (each cluster's
 * model) and limb chains (a limb node whose parent is not one, with its limb
 * descendants), each closed over their common root (in each tree of the
 * model forest, as glTF skins' hierarchies are), joined where they share a
 * model, numbered by their lowest skin, then chain; 0 for NULL. Safe from
 * any thread. */
MANI_API uint32_t maniFbx_GetSkeletonCount(const maniFbx* fbx);

/* Returns the skeleton a skin is part of; UINT32_MAX for a skin past the
 * count or one linking no model. Safe from any thread. */
MANI_API uint32_t maniFbx_GetSkinSkeleton(const maniFbx* fbx, uint32_t skin);

/* Builds a skeleton of the document into the builder: its models, named by
 * their bone names, each bone's rest its model's local in FBX's transform
 * model (T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1, Euler angles in
 * degrees in the model's RotationOrder when RotationActive is 1 and in XYZ
 * otherwise, pre- and post-rotation in XYZ; its
 * own properties, else the Model template's in Definitions, else FBX's
 * defaults; in the legacy layout (top-level Model records) Lcl Translation,
 * Rotation and Scaling from the Default values of the model's Channel
 * "Transform" (T, R, S, each X, Y, Z), else of its channel in the take
 * Takes/Current names, else the first), conjugated by the basis change B (the file's right, up and front
 * of maniFbx_ReadSettings become up x front, the options' up and front;
 * lengths times unitMetres * unitScale). Scale inheritance is ufbx's: a
 * model's inherit scale is its Lcl Scaling, times its parent's
 * componentwise when it is of inherit type RrSs (0, FBX's default); an RrSs
 * model takes its parent's inherit scale E componentwise after its own
 * rotation (world U T(E t) R (E s), U the parent's world without E), a
 * model of inherit type Rrs (2) leaves the parent's scale out (U T(E t) R
 * s, times the grandparent's inherit scale on s under an RrSs parent), and
 * RSrs (1) is the normal product. Where the result is not the normal
 * product (Rrs under any parent, RrSs under a parent whose inherit scale
 * is not uniform) the model hangs from a helper bone, the parent's bone
 * name followed by "#unscaled", whose rest takes the parent's Lcl Scaling
 * away (its whole inherit scale when the grandparent's is not uniform); a
 * clip keeps the helpers the rest made. With foldPlacement the root's rest
 * is composed with its placement.
 * Geometric transforms are the meshes' (not the bones').
 * Returns mani_success; mani_errorInvalid for a NULL argument, a skeleton
 * past the count or options out of range (a misuse); mani_errorFormat with a
 * reason: Property (item the model, offset the value) for a transform
 * property that is not a finite number, a vector of fewer than three, a
 * RotationOrder outside 0 to 6 or an InheritType outside 0 to 2 (every
 * transform property and RotationActive read as numbers); Matrix
 * (item the model) for a rest that does not split into T R S or a parent
 * scaling of 0 under an Rrs child; Build (item the build reason);
 * mani_errorCapacity when the allocator fails; mani_errorBusy from the
 * allocator's hooks. Safe from any thread; the builder is used by one thread
 * at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildFbxSkeleton(maniBuilder* builder, const maniFbx* fbx,
                                                              uint32_t skeleton, const maniFbxOptions* options);

/* Builds a model's subtree (the model and every model below it) as a
 * skeleton, for rigid hierarchies, as maniBuildFbxSkeleton builds one; a
 * model past the count is mani_errorInvalid. Safe from any thread; the
 * builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildFbxModelSkeleton(maniBuilder* builder, const maniFbx* fbx,
                                                                   uint32_t model, const maniFbxOptions* options);

/* Gives where a skeleton's root (its lowest model whose parent is not in
 * it) hangs: the world of the model above it (times that model's scaling
 * inverted when the root is of inherit type Rrs), conjugated by the basis
 * change; identity when the root is at the top or the options fold the
 * placement.
 * Returns mani_success; mani_errorInvalid for a NULL argument or a skeleton
 * past the count; the options' code for options refused; mani_errorFormat
 * (Property, Matrix as maniBuildFbxSkeleton) for a model above the root whose
 * properties are refused. *placementOut is unchanged on failure. Safe from
 * any thread. */
MANI_NODISCARD MANI_API maniImportResult maniFbx_GetSkeletonPlacement(const maniFbx* fbx, uint32_t skeleton,
                                                                      const maniFbxOptions* options,
                                                                      maniAffine* placementOut);

/* Gives where a model skeleton's root hangs (maniBuildFbxModelSkeleton), as
 * maniFbx_GetSkeletonPlacement; a model past the count is mani_errorInvalid.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniImportResult maniFbx_GetModelPlacement(const maniFbx* fbx, uint32_t model,
                                                                   const maniFbxOptions* options,
                                                                   maniAffine* placementOut);
/* Builds a skin into the builder against an opened skeleton: a joint a
 * cluster (the skin's Deformer children of subclass Cluster, in connection
 * order), its bone the cluster's model found by bone name; its inverse bind
 * the mesh relative to the bone at bind, as ufbx reads it: the cluster's
 * Transform (16 numbers, column-major), else the first bind pose holding the
 * bone and the mesh model (the bone's matrix inverted times the mesh's),
 * else the rest (the bone's world inverted times the mesh model's); times the
 * mesh model's geometric transform, conjugated by the basis change.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a skin past
 * the count or options out of range (a misuse); mani_errorFormat with a
 * reason: Bone (item the cluster, offset its record) for a cluster linking no
 * model or one whose bone name the skeleton lacks; Matrix (item the cluster,
 * offset the record) for a bind that is not 16 numbers, not affine (a last
 * row other than 0 0 0 1, a value not finite) or not invertible; Property
 * (item the cluster, offset the value) for a cluster of Mode "Additive";
 * Property as maniBuildFbxSkeleton for the mesh model's transform; Build (a
 * skin without clusters among them); mani_errorCapacity when the allocator
 * fails. Vertex weights are maniBuildFbxInfluences'. Safe from any thread;
 * the builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildFbxSkin(maniBuilder* builder, const maniFbx* fbx, uint32_t skin,
                                                          const maniSkeleton* skeleton,
                                                          const maniFbxOptions* options);

/* Builds a skin's influences into the builder, a vertex a control point of
 * its mesh (its Geometry's Vertices in 7.x, the mesh model's before), bound
 * to the opened skin maniBuildFbxSkin built from it (a cluster's index its
 * joint): every cluster's Indexes and Weights, indices past the control
 * points (or below 0) skipped, a vertex given twice by one cluster summed (in
 * binary64, rounded once), then sorted and renormalized as
 * maniBuildInfluences does; unless the method is linear, blend weights: 1 for
 * a dual quaternion skin and 0 for a blended one, then the skin's
 * BlendWeights at its Indexes (the arrays ufbx reads; BlendIndexes when the
 * skin has no Indexes).
 * Returns mani_success; mani_errorInvalid for a NULL argument or a skin past
 * the count (a misuse); mani_errorFormat with a reason: Property (item the
 * skin for no control points or blend indices and BlendWeights of different
 * counts, the cluster for Indexes and Weights of different counts; offset the
 * record), Influence (a weight below 0 or not finite, item the cluster; a
 * blend weight outside 0 to 1, item the skin; offset the array), Data (an
 * array that does not decode), Build; mani_errorCapacity when the allocator
 * fails. Safe from any thread; the builder is used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildFbxInfluences(maniBuilder* builder, const maniFbx* fbx,
                                                                uint32_t skin, const maniSkin* built);

/* Returns how many sets of morph targets the document has: its BlendShape
 * deformers (Deformer records of subclass BlendShape), in object order, then
 * (before 7.2) the meshes holding Shape children (the Geometry in 7.0 and
 * 7.1, the Model before 7), in object order; 0 for NULL. Safe from any
 * thread. */
MANI_API uint32_t maniFbx_GetMorphCount(const maniFbx* fbx);

/* Returns the mesh model a set of morph targets deforms (the deformer's
 * Geometry's first model; a legacy Model its own); its bone name begins the
 * clips' weight tracks for it (<mesh>/<target>). UINT32_MAX for none or a
 * set past the count. Safe from any thread. */
MANI_API uint32_t maniFbx_GetMorphModel(const maniFbx* fbx, uint32_t morph);

/* Returns the number of targets a set of morph targets has: its channels'
 * shapes (a Shape geometry counted when it has Indexes and Vertices), but a
 * shape after another of the same full weight (whose weight track is always
 * 0); a channel whose FullWeights maniFbx_GetMorphWeights refuses counts
 * none. 0 past the count. Safe from any thread. */
MANI_API uint32_t maniFbx_GetMorphTargetCount(const maniFbx* fbx, uint32_t morph);

/* Builds a set of morph targets into the builder, as ufbx reads them: a
 * channel a BlendShapeChannel (in connection order; a Shape child before
 * 7.2), its shapes the targets at FullWeights / 100 (a shape past the array
 * at 1), sorted by full weight as the clips order them, a shape after another
 * of the same full weight left out, as is a channel without shapes; a vertex
 * a control point of the mesh (its Vertices); positions and normals as
 * offsets in the options' axes (positions in its unit too; normals only when
 * a shape has them), indices past the control points (or below 0) skipped.
 * Blender's per-vertex weights are folded in: in a file of Blender's binary
 * exporter (FBXHeaderExtension/Creator "Blender" followed by "- x.y.z" after
 * a second '-' or "- x.y" after the first, as ufbx tells it) every shape is
 * at full weight 1 and FullWeights, when as many as the first shape's
 * Indexes, scale its offsets by their values / 100. Channels are named as
 * their objects (without the class; a Shape child as the shape), one
 * repeating an earlier one's name followed by '#' and its channel index,
 * again until no earlier one has it; a target as its shape, else as its
 * channel with '/' and its index past the first, as weight tracks are.
 * Returns mani_success; mani_errorInvalid for a NULL argument, a set past the
 * count or options out of range (a misuse); mani_errorFormat with a reason:
 * Property (item the set and offset the mesh for no control points; item the
 * channel's index in the set and offset the shape's record for Vertices not
 * three per Indexes entry or Normals of another count), Data (an array that
 * does not decode; a FullWeights value not finite or a FullWeights of more
 * than 1024 values that are not per-vertex weights, or a per-vertex weight
 * not finite, item the channel's index, offset the array), Build (a full weight of 0, no channel with shapes, a
 * name not UTF-8; the item the builder's reason); mani_errorCapacity when the
 * allocator fails. Safe from any thread; the builder is used by one thread at
 * a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildFbxMorphTargets(maniBuilder* builder, const maniFbx* fbx,
                                                                  uint32_t morph, const maniFbxOptions* options);

/* Reads the target weights a set of morph targets has at rest, one per target
 * in maniBuildFbxMorphTargets' order: each channel's DeformPercent property
 * (Properties70's or Properties60's, as ufbx reads it: a plain DeformPercent
 * record, which Blender writes, is not one; before 7.2 the mesh's property
 * named as the shape; 0 when absent) / 100 as a binary32 weight track holds
 * it, walked through its targets' full weights and an implicit zero shape as
 * maniMorphTargets_ComputeTargetWeights walks them. Call it with a NULL array
 * and capacity 0 to measure.
 * Returns mani_success with *countOut (when not NULL) the target count;
 * mani_errorCapacity when capacity is below the target count, with the count
 * still written and the array zeroed; mani_errorInvalid for a NULL document,
 * a NULL array with a positive capacity or a set past the count;
 * mani_errorFormat (Data, item the channel's index, as
 * maniBuildFbxMorphTargets) for a FullWeights value not finite or an array
 * that does not decode. The array is unchanged on the other failures. Safe
 * from any thread. */
MANI_NODISCARD MANI_API maniImportResult maniFbx_GetMorphWeights(const maniFbx* fbx, uint32_t morph,
                                                                 float* weightsOut, uint32_t capacity,
                                                                 uint32_t* countOut);
/* -- FBX clips ------------------------------------------------------------------------ */

/* Returns how many clips the document has: its animation stacks (7.x, the
 * AnimationStack objects) or, before 7000, its takes (the Take records of
 * Takes), in file order; 0 for NULL. Safe from any thread. */
MANI_API uint32_t maniFbx_GetClipCount(const maniFbx* fbx);

/* Returns a clip's name: its stack's without the class ("AnimStack::" in
 * ASCII, the "\0\1AnimStack" after it in binary), or its take's, UTF-8 as the
 * file gives it and not terminated; NULL (length 0) past the count. Safe
 * from any thread. */
MANI_API const char* maniFbx_GetClipName(const maniFbx* fbx, uint32_t clip, size_t* lengthOut);

/* Builds a clip into the builder for an opened skeleton: the stack's layers
 * and curves evaluated as ufbx evaluates them, at every sample of the clip's
 * grid from the stack's start (its LocalStart/LocalStop, else
 * ReferenceStart/ReferenceStop, or the take's LocalTime/ReferenceTime, else
 * its keys), whole KTime ticks apart. Each bone of the skeleton named as a
 * model (or a model's helper, name#unscaled) takes its local as a skeleton
 * built from the file formed its rest, the options' axes and unit applied
 * and, with placement folded, the placement composed into the root; a
 * channel that never leaves the skeleton's rest is left out. Other numbers a
 * bone's model animates become float tracks named bone/property (/0 to /2
 * added for vectors). Morph weights become weight tracks after those: for
 * each set of morph targets (maniFbx_GetMorphCount order) whose mesh model
 * is a bone or whose skin's skeleton holds a bone's model, each channel
 * whose DeformPercent the stack animates (before 7.2 the mesh's property
 * named as the shape: on the 7.x Geometry, or a 6.x take's channel of the
 * mesh Model, which then gives no float track of its own) gives a track
 * per target, in
 * maniBuildFbxMorphTargets' order, named <mesh's bone name>/<target name>:
 * the channel's DeformPercent through the layers (its rest value the base)
 * / 100 as binary32, walked through the targets as maniFbx_GetMorphWeights
 * walks it, so the tracks are target weights. The clip's root motion, if
 * any, is taken out as maniBuildClip takes it.
 * Returns mani_success (*boundOut, when not NULL, the bones given a
 * channel); mani_errorInvalid for a NULL argument, a clip past the count,
 * options out of range or a clip setting out of range (as
 * maniBuildGltfClip), a misuse; mani_errorFormat with a reason (Property
 * with the clip as item for a stack's curves or channels refused, or with
 * the model for an animated integer input out of range; Matrix with the
 * model for a local that does not decompose at a sample; Name with the model
 * for a repeated float track name; Build with the build reason as item for a
 * timing, basis or root motion the builder refuses); mani_errorCapacity when
 * the allocator fails. Safe from any thread; the builder is used by one
 * thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniBuildFbxClip(maniBuilder* builder, const maniFbx* fbx, uint32_t clip,
                                                          const maniSkeleton* skeleton, const maniFbxOptions* options,
                                                          const maniImportClipOptions* clipOptions,
                                                          uint32_t* boundOut);

/* -- Ragdoll profiles (OMI physics) --------------------------------------------------- */

/* Reads the document's OMI_physics_body, OMI_physics_shape and
 * OMI_physics_joint extensions as a ragdoll profile's source (build.h) on an
 * opened skeleton. Each dynamic or kinematic body sits on the bone of its
 * node or of the node's nearest ancestor that is a bone (found by bone
 * name), its frame the frame of its one collider's node (the body's node or
 * one below it the body owns; rigid, in the bone's model frame with scale
 * left out), its shape that collider's (a box's size halved, a sphere's
 * radius, a capsule's height and radius: radiusTop and radiusBottom
 * equal) times the node's scale, its mass the motion's (default 1).
 * Each joint joins
 * a body to its nearest ancestor body: its frame the child side's node's
 * (of the joint node and its connectedNode, the one the child body owns),
 * every linear axis fixed, angular limits as twist (x) and symmetric swings
 * (y, z; an axis without a limit free), and angular force-mode drives, equal
 * on their axes and without targets, as the drive. The root body's facing
 * and up axes are facing and up (glTF's basis, unit and perpendicular within
 * a thousandth) turned into its frame at rest. Inertia, initial velocities,
 * triggers, collision settings, materials and static bodies are ignored. A
 * document without bodies on the skeleton gives an empty source (bodyCount
 * 0). The arrays are the document's until maniCloseGltf (this reader keeps
 * each call's until then).
 * Returns mani_success; mani_errorInvalid for a NULL argument, options out
 * of range, a skeleton view no open wrote or axes refused (a misuse);
 * mani_errorFormat with maniImportReasonProperty (item the node, offset its
 * JSON) for a body, collider, shape or joint property refused,
 * maniImportReasonUnsupported for what a profile cannot hold (a body
 * without a collider, or a second body on a bone: item the body's node,
 * offset its OMI_physics_body; a
 * body's second collider: item its node, offset its collider; a shape of
 * another kind than box, sphere and capsule, such as OMI's cylinder, convex
 * and trimesh, or a tapered capsule: item the collider node, offset its
 * shape's type string or capsule object), or maniImportReasonMatrix for a
 * node matrix that does not split;
 * mani_errorCapacity when the allocator fails; mani_errorBusy from the
 * allocator's hooks. *sourceOut is unchanged on failure. Safe from any
 * thread; the document and its builder are used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniGltf_ReadRagdoll(maniGltf* gltf, const maniSkeleton* skeleton,
                                                              const maniGltfOptions* options, maniVec3 facing,
                                                              maniVec3 up, maniRagdollSource* sourceOut);

/* -- Spring bones (VRMC_springBone) --------------------------------------------------- */

/* Reads the document's VRMC_springBone extension (specVersion "1.0") as a
 * spring set's source (build.h, spring.h) on an opened skeleton: colliders,
 * collider groups and springs, nodes found by bone name. A joint's node must
 * be a bone; a collider sits on the bone of its node or of the node's
 * nearest ancestor that is a bone, its shape carried into that bone's frame
 * through the nodes between (radius times their largest scale). Offsets,
 * tails, plane points and normals and gravity directions are in the
 * output's basis; lengths (offsets, radii, hit radii, and the stiffness and
 * gravity power, displacements a second) times the unit. Colliders'
 * VRMC_springBone_extended_collider and joints' VRMC_springBone_limit of
 * specVersion "1.0" (another version is ignored: the collider keeps its
 * VRMC_springBone shape, the joint no limit) give inside spheres and
 * capsules, planes (normal default +Z, normalized), cones, hinges and
 * spherical limits (pitch and yaw), a limit's rotation such that its frame
 * is glTF's in the output's basis (the basis turn times the rotation); a
 * last joint's limit is ignored. VRMC_springBone's defaults fill what a
 * joint leaves out (hit radius 0, stiffness 1, gravity power 0, gravity
 * direction -Y, drag 0.5). Both rates are 60 (the examples' frame rate; the
 * caller may change them before building). Colliders with no bone and
 * springs with no joint on the skeleton are left out (a group keeps its
 * other colliders, in order); a spring's center is the bone of its node or
 * nearest ancestor (a spring without one: the world). Ranges (hit radius, drag,
 * angles, chains) are left to maniBuildSpringSet. A document without the
 * extension (a VRM 0.x avatar among them) gives an empty set (no
 * colliders, groups or springs). The arrays are the document's until
 * maniCloseGltf (this reader keeps each call's until then).
 * Returns mani_success; mani_errorInvalid for a NULL argument, options out
 * of range or a skeleton view no open wrote (a misuse); mani_errorFormat
 * with maniImportReasonProperty (item the entry's index in its array, 0 for
 * the extension itself; offset the refused value's JSON) for the extension
 * not an object or of another specVersion, colliders, colliderGroups or
 * springs not arrays, an entry not an object, a node, collider, group or
 * center index not a whole number in range, a spring without joints, a
 * name not a string, a number not finite binary32, an offset, tail,
 * normal, gravity direction or rotation not an array of 3 (4) of them, a
 * shape or limit object without exactly one kind (or a spherical limit
 * without pitch and yaw, a cone or hinge without its angle), inside not a
 * boolean; maniImportReasonBone (item the spring, offset the node's index)
 * for a spring some of whose joints are bones and others not, or a spring
 * on the skeleton whose center has no bone; maniImportReasonMatrix (item
 * the node) for a node matrix between a collider and its bone refused;
 * mani_errorCapacity when the allocator fails; mani_errorBusy from the
 * allocator's hooks. *setOut is unchanged on failure. Safe from any thread;
 * the document and its builder are used by one thread at a time. */
MANI_NODISCARD MANI_API maniImportResult maniGltf_ReadSprings(maniGltf* gltf, const maniSkeleton* skeleton,
                                                              const maniGltfOptions* options,
                                                              maniSpringSetSource* setOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_IMPORT_H */
