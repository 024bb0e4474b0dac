/* Maul Anim: morph.h
 *
 * Morph targets: a mesh primitive's blend shapes over the caller's bytes.
 * Named channels, each one or more targets at increasing full weights
 * (glTF's targets have one at 1; FBX's in-betweens several), each target
 * deltas for some of the file's attributes (positions, normals, tangents,
 * texture coordinate and color sets), stored densely (every vertex) or
 * sparsely (increasing vertex indices). Opening a file checks all of it
 * once; the view then reads it without checks and allocates nothing. The
 * morph targets file format is in docs/formats.md ("Morph targets").
 *
 * A frame: channel weights (a clip's weight tracks, bound by target name)
 * -> maniMorphTargets_ComputeTargetWeights -> target weights ->
 * maniApplyMorphTargets over the mesh's vertex streams -> the skinning job's
 * input.
 */
#ifndef MAUL_ANIM_MORPH_H
#define MAUL_ANIM_MORPH_H

#include "maul/anim/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most attributes (semantic and set pairs) one file moves. */
#define MANI_MAX_MORPH_ATTRIBUTES 8u

/* "No channel" (and "no target"): what the finds return when no name
 * matches. */
#define MANI_NO_CHANNEL 0xFFFFFFFFu

/* What an attribute is. Each semantic has a fixed number of float
 * components, in deltas and in streams alike:
 *   position 3 (x, y, z), normal 3, tangent 3 (x, y, z; a stream's fourth
 *   float, the handedness, is neither read nor written), texture
 *   coordinate 2 (u, v), color 4 (r, g, b, a).
 * Positions, normals and tangents have one set (0); texture coordinates and
 * colors have sets 0 to MANI_MAX_MORPH_SET. */
typedef enum maniMorphSemantic {
    maniMorphSemanticNone = -1, /* what the accessors return for no attribute */
    maniMorphPosition = 0,
    maniMorphNormal = 1,
    maniMorphTangent = 2,
    maniMorphTexCoord = 3,
    maniMorphColor = 4
} maniMorphSemantic;

/* The highest set a texture coordinate or color attribute may have. */
#define MANI_MAX_MORPH_SET 7u

/* -- The view ------------------------------------------------------------------- */

/* A morph targets view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenMorphTargets writes one. Accessors check that the view was
 * written by an open and that its counts fit its file, so a zeroed or
 * damaged view reads as empty, never outside the bytes. */
typedef struct maniMorphTargets {
    const uint8_t* bytes;     /* the file */
    uint64_t size;            /* its size */
    uint64_t identity;        /* the file's identity */
    uint32_t opened;          /* set by an open */
    uint32_t vertexCount;     /* 1 or more */
    uint32_t channelCount;    /* 1 or more */
    uint32_t targetCount;     /* channelCount or more */
    uint32_t attributeCount;  /* 1 to MANI_MAX_MORPH_ATTRIBUTES */
    uint32_t namesSize;       /* bytes of the names section */
    uint32_t indexCount;      /* u32 entries of the indices section */
    uint32_t deltaCount;      /* f32 entries of the deltas section */
    uint64_t attributes;      /* offset of the attributes section: u32 semantic, u32 set */
    uint64_t channels;        /* offset of the channels section: 4 u32 per channel */
    uint64_t targets;         /* offset of the targets section: 14 u32 per target */
    uint64_t indices;         /* offset of the indices section */
    uint64_t deltas;          /* offset of the deltas section */
    uint64_t names;           /* offset of the names section */
} maniMorphTargets;

/* -- The job ---------------------------------------------------------------------- */

/* One vertex stream a job morphs: an attribute's values for the mesh's
 * vertices, read from input and written to output, vertex i at byte
 * i * stride from each pointer (the pointers address vertex 0, not the
 * range's first, so jobs over disjoint ranges share their streams). Each
 * vertex holds the semantic's components as consecutive binary32 values
 * (any alignment of 4). output may be input itself with the same stride
 * (in place); any other overlap of input and output is undefined. */
typedef struct maniMorphStream {
    maniMorphSemantic semantic; /* the attribute's semantic */
    uint32_t set;               /* its set: 0 for positions, normals and tangents */
    uint32_t components;        /* the semantic's component count (3, 3, 3, 2, 4) */
    uint32_t inputStride;       /* bytes from one vertex to the next, at least 4 * components */
    uint32_t outputStride;      /* the same for output */
    const void* input;          /* the values before morphing */
    void* output;               /* where the morphed values go */
} maniMorphStream;

/* A morph job: the targets at their weights applied to the vertices
 * [vertexBegin, vertexEnd) of each stream. A stream whose attribute the file
 * does not move keeps its input values, and normals and tangents are still
 * renormalized (every normal and tangent of the range is, as
 * maniApplyMorphTargets says). */
typedef struct maniMorphJob {
    const maniMorphTargets* targets; /* an opened view */
    const float* targetWeights;      /* one per target (maniMorphTargets_GetTargetCount), finite */
    const maniMorphStream* streams;
    uint32_t streamCount;            /* 0 or more (0: nothing to do) */
    uint32_t vertexBegin;            /* the range: vertexBegin <= vertexEnd <= the vertex count */
    uint32_t vertexEnd;
} maniMorphJob;

/* -- Functions ------------------------------------------------------------------ */

/* Opens a morph targets file in place: checks the container, the sizes, the
 * attribute table (known semantics, sets in range, no pair twice), the
 * channels covering the targets in order, every name (channels' then
 * targets', tiling the name bytes, each 1 to MANI_MAX_NAME_BYTES of UTF-8),
 * every full weight finite, not 0 and increasing within its channel, every
 * sparse target's indices increasing and below the vertex count, the deltas
 * tiling their section in target then attribute order, every delta finite,
 * and the identity. bytes must start at a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. targetsOut is unchanged on failure.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenMorphTargets(const void* bytes, size_t size,
                                                            maniMorphTargets* targetsOut);

/* The number of vertices the targets move; 0 for a view no open wrote or
 * whose counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniMorphTargets_GetVertexCount(const maniMorphTargets* targets);

/* The number of channels, each weighted by its own value; 0 for a view no
 * open wrote or whose counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniMorphTargets_GetChannelCount(const maniMorphTargets* targets);

/* The number of targets over all channels, in channel order; 0 for a view
 * no open wrote or whose counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniMorphTargets_GetTargetCount(const maniMorphTargets* targets);

/* The number of attributes the targets move, at most
 * MANI_MAX_MORPH_ATTRIBUTES; 0 for a view no open wrote or whose counts do
 * not fit its file. Safe from any thread. */
MANI_API uint32_t maniMorphTargets_GetAttributeCount(const maniMorphTargets* targets);

/* One of the attributes the targets move: its semantic, and its set in
 * *setOut (when not NULL). maniMorphSemanticNone (-1) and set 0 past the
 * count or for a view no open wrote or whose counts do not fit its file.
 * Safe from any thread. */
MANI_API maniMorphSemantic maniMorphTargets_GetAttribute(const maniMorphTargets* targets, uint32_t attribute,
                                                         uint32_t* setOut);

/* A channel's name, UTF-8 and not terminated, its length in *lengthOut
 * (when not NULL; 0 with NULL). The bytes are inside the file. NULL for a
 * channel past the count, a view no open wrote or whose counts do not fit
 * its file, or a name span in bytes changed after the open past the names.
 * Safe from any thread. */
MANI_API const char* maniMorphTargets_GetChannelName(const maniMorphTargets* targets, uint32_t channel,
                                                     size_t* lengthOut);

/* Finds a channel by its name (length bytes), in time linear in the
 * channels: the first of that name. MANI_NO_CHANNEL when none has it, for a
 * NULL name with a length, or for a view no open wrote or whose counts do
 * not fit its file. Safe from any thread. */
MANI_API uint32_t maniMorphTargets_FindChannel(const maniMorphTargets* targets, const char* name, size_t length);

/* A target's name, UTF-8 and not terminated: the one it was built with,
 * else its channel's, followed by '/' and its index within the channel past
 * the first (a channel's first target takes the channel's name). Clip
 * weight tracks (<node or mesh>/<name>) bind to targets by it. NULL (length
 * 0) for a target past the count, a view no open wrote or whose counts do
 * not fit its file, or a name span in bytes changed after the open past the
 * names. Safe from any thread. */
MANI_API const char* maniMorphTargets_GetTargetName(const maniMorphTargets* targets, uint32_t target,
                                                    size_t* lengthOut);

/* Finds a target by its name, in time linear in the targets: the first of
 * that name. MANI_NO_CHANNEL when none has it, for a NULL name with a
 * length, or for a view no open wrote or whose counts do not fit its file.
 * Safe from any thread. */
MANI_API uint32_t maniMorphTargets_FindTarget(const maniMorphTargets* targets, const char* name, size_t length);

/* A channel's targets: the number, and the first's index in *firstOut (when
 * not NULL; 0 with a count of 0). 0 for a channel past the count, a view no
 * open wrote or whose counts do not fit its file, or targets in bytes
 * changed after the open past the target count. Safe from any thread. */
MANI_API uint32_t maniMorphTargets_GetChannelTargets(const maniMorphTargets* targets, uint32_t channel,
                                                     uint32_t* firstOut);

/* The channel weight at which a target applies in full; 0 for a target past
 * the count or a view no open wrote or whose counts do not fit its file.
 * Safe from any thread. */
MANI_API float maniMorphTargets_GetTargetFullWeight(const maniMorphTargets* targets, uint32_t target);

/* Turns channel weights (one per channel) into target weights (one per
 * target), for the job or a shader. Within a channel of targets at full
 * weights f_0 < ... < f_n-1, the keys are those weights and an implicit
 * zero shape at 0, in increasing order; a channel weight w between two
 * neighbouring keys a <= w <= b (the first such pair) gives the target at
 * b the weight (w - a) / (b - a) and the one at a (b - w) / (b - a), every
 * other target 0; below the first key or above the last, the first or last
 * pair extrapolates. Computed in binary64, each weight rounded once (a
 * result past binary32's range is infinite). So a channel of one target at
 * 1 passes its weight through, bit for bit. *countOut (when not NULL)
 * receives the target count. Call it with a NULL array and capacity 0 to
 * measure.
 * Returns mani_success; mani_errorCapacity when capacity is below the
 * target count, with the count still written and nothing else;
 * mani_errorInvalid for a view no open wrote or whose counts do not fit its
 * file, a NULL targets or weights, a NULL array with a positive capacity,
 * or a weight not finite (nothing written). A channel whose targets in
 * bytes changed after the open are past the target count writes no weight;
 * changed bytes give some weights, read and written only within the file
 * and the array.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniMorphTargets_ComputeTargetWeights(const maniMorphTargets* targets,
                                                                        const float* channelWeights,
                                                                        float* targetWeightsOut, uint32_t capacity,
                                                                        uint32_t* countOut);

/* Applies morph targets: for each stream and each vertex of the range, the
 * input value plus, target by target in the file's order, the target's
 * weighted delta for the stream's attribute: in binary32, p = w * d per
 * component, added (v = v + p) unless p is zero (of either sign), so a
 * target at weight 0, a vertex a sparse target leaves out and a zero delta
 * all leave the bits alone; ranges and sparsity give the same bits. Then
 * every normal and tangent of the range is renormalized in binary32:
 * l = sqrt((x x + y y) + z z), each component divided by l; a vector whose
 * squared length is 0 (underflow included) is kept as it is, one whose
 * squared length overflows becomes zero. A stream whose attribute the file
 * does not move adds nothing: its values are copied, and if it holds normals
 * or tangents they are renormalized all the same (the reference's "every
 * normal and tangent of the range"). Runs before skinning, into the skinning job's
 * input. The vector backend adds dense targets 8 floats a group and
 * renormalizes 8 vertices a group with the same operations, bit-identical
 * to the scalar build.
 * Returns mani_success; mani_errorInvalid for a view no open wrote or whose
 * counts do not fit its file, a NULL job, targets or weights (or streams
 * with a count), a weight not finite, a range past the vertices or reversed,
 * or a stream without pointers, with a stride too small, an unknown
 * semantic, a set beyond 0 for positions, normals or tangents (beyond
 * MANI_MAX_MORPH_SET for the others), or components other than its
 * semantic's (nothing written). A target whose deltas or indices in bytes
 * changed after the open are past their sections, or a dense one without
 * every vertex, adds nothing, and a sparse vertex outside the range (or,
 * its indices no longer sorted, outside the block of vertices its entry was
 * found for) adds its delta to the range's last vertex: changed bytes morph
 * some vertices, read and written only within the file and the streams.
 * Safe from any thread; the output range is used by one thread at a time.
 * Jobs over disjoint ranges run at once. */
MANI_NODISCARD MANI_API maniResult maniApplyMorphTargets(const maniMorphJob* job);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_MORPH_H */
