/* Maul Anim: skinning.h
 *
 * Skinning: a mesh primitive's influences, bound to a skin, read in place
 * from an influences file (docs/formats.md, "Influences"); palettes turned
 * into the forms renderers skin with; and the skinning jobs over vertex
 * streams. Each vertex holds groups of four influences, weights decreasing
 * and summing to 1 (or all 0: a vertex left as it is).
 */
#ifndef MAUL_ANIM_SKINNING_H
#define MAUL_ANIM_SKINNING_H

#include "maul/anim/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The floats maniConvertPaletteToDualQuaternions writes per matrix: the
 * rotation's quaternion (4), the dual part (4), then S as three rows of four
 * (12). */
#define MANI_DUAL_QUATERNION_FLOATS 20u

/* The floats maniConvertPaletteToRows writes per matrix: three rows of four. */
#define MANI_PALETTE_ROW_FLOATS 12u

/* The most weighted influences a vertex may have (maniBuildInfluences). */
#define MANI_MAX_INFLUENCES 16u

/* The most streams one skinning job takes. */
#define MANI_MAX_SKIN_STREAMS 8u

/* -- The view ------------------------------------------------------------------- */

/* An influences view: where an open found the file's parts. A value the
 * caller keeps (it points into the caller's bytes, which must outlive it);
 * only maniOpenInfluences writes one. Accessors check that the view was
 * written by an open and that its counts fit its file, so a zeroed or
 * damaged view reads as empty, never outside the bytes. */
typedef struct maniInfluences {
    const uint8_t* bytes;      /* the file */
    uint64_t size;             /* its size */
    uint64_t identity;         /* the file's identity */
    uint64_t skinIdentity;     /* the identity of the skin the influences are bound to */
    uint32_t opened;           /* set by an open */
    uint32_t vertexCount;      /* 1 to MANI_MAX_INFLUENCE_VERTICES */
    uint32_t perVertex;        /* influences a vertex: 4 to MANI_MAX_INFLUENCES, a multiple of 4 */
    uint32_t jointCount;       /* the skin's joint count, 1 to MANI_MAX_BONES */
    uint64_t joints;           /* offset of the joints section: u16 per influence */
    uint64_t weights;          /* offset of the weights section: f32 per influence */
    uint64_t dualQuaternionWeights; /* offset of the blend weights (f32 per vertex), 0 without them */
    uint64_t centers;          /* offset of the centers (3 f32 per vertex), 0 without them */
} maniInfluences;

/* The most vertices an influences file holds. */
#define MANI_MAX_INFLUENCE_VERTICES (1u << 24)

/* -- Skinning jobs ------------------------------------------------------------- */

/* What a stream holds, and so how a job moves it. */
typedef enum maniSkinStreamKind {
    maniSkinStreamPosition = 1,  /* 3 floats: a point, moved by the full matrix */
    maniSkinStreamNormal = 2,    /* 3 floats: a normal, by the cofactor of the 3x3 part times its
                                    determinant's sign, renormalized (zero when it collapses) */
    maniSkinStreamDirection = 3, /* 3 floats: a direction (a tangent, a bitangent), by the 3x3 part,
                                    renormalized (zero when it collapses) */
    maniSkinStreamTangent = 4    /* 4 floats: xyz a direction as above, w (handedness) copied */
} maniSkinStreamKind;

/* One vertex stream: vertex v of the job's range is read at
 * input + v * inputStride and written at output + v * outputStride (byte
 * strides, at least the kind's size; v counted from vertex 0 of the mesh,
 * not from the range's first). An output may be its own input (same pointer
 * and stride); any other overlap of an output with an input is undefined. */
typedef struct maniSkinStream {
    const void* input;
    void* output;
    uint32_t inputStride;
    uint32_t outputStride;
    uint32_t kind; /* a maniSkinStreamKind */
    uint32_t reserved; /* 0 */
} maniSkinStream;

/* A skinning job: vertices firstVertex to firstVertex + vertexCount - 1 of
 * the influences' mesh, every stream moved by its joints' palette. */
typedef struct maniSkinJob {
    const maniInfluences* influences;
    const maniAffine* palette;     /* paletteCount matrices (maniPose_ComputePalette) */
    const float* dualQuaternions;  /* paletteCount * MANI_DUAL_QUATERNION_FLOATS floats
                                      (maniConvertPaletteToDualQuaternions of the same palette);
                                      needed by every method but maniSkinLinear */
    uint32_t paletteCount;         /* the influences' joint count */
    uint32_t firstVertex;
    uint32_t vertexCount;
    uint32_t streamCount;          /* 0 to MANI_MAX_SKIN_STREAMS */
    const maniSkinStream* streams;
} maniSkinJob;

/* -- Functions ------------------------------------------------------------------ */

/* Opens an influences file in place: checks the container, the sizes, every
 * joint against the skin's joint count the file records, every weight
 * finite and from 0 to 1, the dual quaternion weights (finite, 0 to 1) and
 * the centers (finite) when present, and the identity. bytes must start at
 * a multiple of MANI_FILE_ALIGNMENT.
 * Returns mani_success; mani_errorInvalid for a NULL argument or misaligned
 * bytes; mani_errorFormat with the offset of the first byte found wrong;
 * mani_errorVersion for any other format version or a section tag only a
 * later format writes. influencesOut is unchanged on failure.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniFileResult maniOpenInfluences(const void* bytes, size_t size,
                                                          maniInfluences* influencesOut);

/* The number of vertices; 0 for a view no open wrote or whose counts do not
 * fit its file. Safe from any thread. */
MANI_API uint32_t maniInfluences_GetVertexCount(const maniInfluences* influences);

/* The influences a vertex holds: four times the group count, the last ones
 * of weight 0 where a vertex has fewer; 0 for a view no open wrote or whose
 * counts do not fit its file. Safe from any thread. */
MANI_API uint32_t maniInfluences_GetPerVertex(const maniInfluences* influences);

/* Whether the influences are a skin's: its identity and joint count are the
 * ones recorded; false for a view (either) no open wrote or whose counts do
 * not fit its file. Safe from any thread. */
MANI_API bool maniInfluences_IsSkinFit(const maniInfluences* influences, const maniSkin* skin);

/* One influence of a vertex: returns its joint (an index into the skin's
 * joints) and writes its weight to *weightOut (when not NULL). Joint 0 at
 * weight 0 for a vertex or slot past the counts or a view no open wrote or
 * whose counts do not fit its file; joint 0 (weight as read) for a joint in
 * bytes changed after the open past the skin's joints. Safe from any
 * thread. */
MANI_API uint32_t maniInfluences_GetInfluence(const maniInfluences* influences, uint32_t vertex, uint32_t slot,
                                              float* weightOut);

/* A vertex's blend between linear (0) and dual quaternion (1) skinning,
 * FBX's blended method; 0 for influences without them, a vertex past the
 * count or a view no open wrote or whose counts do not fit its file. Safe
 * from any thread. */
MANI_API float maniInfluences_GetDualQuaternionWeight(const maniInfluences* influences, uint32_t vertex);

/* Reads a vertex's center of rotation, built offline (maniBuildCenters).
 * Returns true when the influences hold centers and the vertex is in range;
 * false (centerOut unchanged) otherwise or for a view no open wrote or whose
 * counts do not fit its file. Safe from any thread. */
MANI_API bool maniInfluences_GetCenter(const maniInfluences* influences, uint32_t vertex, maniVec3* centerOut);

/* Linear blend skinning: each vertex moved by the weighted sum of its
 * joints' palette matrices (M = w0 P0, then M += wk Pk slot by slot, each
 * product and sum rounded to binary32), its directions by M's 3x3 part, its
 * normals by that part's cofactor times its determinant's sign (the inverse
 * transpose's direction), directions renormalized (zero when they
 * collapse). A vertex without weight (its first weight 0) is copied, bits
 * unchanged. Vertices are computed eight at a time by the configured
 * vector backend, each with the same bits as the scalar reference gives it,
 * so jobs over disjoint ranges give the bits of one job.
 * Returns mani_success; mani_errorInvalid for an influences view no open
 * wrote or whose counts do not fit its file, a NULL argument (a NULL stream
 * array with streams), a palette count other than the influences' joint
 * count, a range past the vertices, more than MANI_MAX_SKIN_STREAMS
 * streams, or a stream without pointers, with a stride too small or of an
 * unknown kind (nothing written). A joint in bytes changed after the open
 * past the skin's joints reads palette entry 0.
 * Safe from any thread; the output range is used by one thread at a time.
 * Jobs over disjoint ranges run at once. */
MANI_NODISCARD MANI_API maniResult maniSkinLinear(const maniSkinJob* job);

/* Dual quaternion skinning in two phases (Kavan et al. 2008): each vertex's
 * scale and shear parts S (the dual quaternion palette's) summed at their
 * weights and applied first, then its joints' dual quaternions blended
 * (each turned to the first's hemisphere) and normalized (a zero blend: the
 * identity). The vertex's matrix is then [R(q) S | t(q, d)], and streams
 * move as maniSkinLinear moves them; a vertex with one influence moves as
 * under linear skinning, up to rounding.
 * Returns as maniSkinLinear, and mani_errorInvalid without dual
 * quaternions. Safe from any thread; the output range is used by one thread
 * at a time. Jobs over disjoint ranges run at once. */
MANI_NODISCARD MANI_API maniResult maniSkinDualQuaternion(const maniSkinJob* job);

/* FBX's blended skinning: each vertex moved by (1 - b) times its linear
 * matrix plus b times its dual quaternion one, b its weight in the
 * influences (0 where they have none). A vertex at 0 or 1 gives the bits of
 * maniSkinLinear or maniSkinDualQuaternion.
 * Returns as maniSkinDualQuaternion. Safe from any thread; the output range
 * is used by one thread at a time. Jobs over disjoint ranges run at once. */
MANI_NODISCARD MANI_API maniResult maniSkinBlended(const maniSkinJob* job);

/* Skinning with optimized centers of rotation (Le and Hodgins 2016) in two
 * phases: each vertex's scale and shear parts summed at their weights (S),
 * then the rotation R of its joints' quaternions blended in the first's
 * hemisphere and normalized, and the translation that carries the scaled
 * center c where linear blending of the rigid parts takes it:
 * v' = R (S v - S c) + sum w_j (R_j S c + t_j), t_j the palette's
 * translation. Streams move by the matrix [R S | ...] as maniSkinLinear
 * moves them. No collapse and no bulge; a vertex with one influence moves
 * as under linear skinning, up to rounding.
 * Returns as maniSkinDualQuaternion, and mani_errorInvalid for influences
 * without centers. Safe from any thread; the output range is used by one
 * thread at a time. Jobs over disjoint ranges run at once. */
MANI_NODISCARD MANI_API maniResult maniSkinCenters(const maniSkinJob* job);


/* Writes a palette for dual quaternion skinning, on the CPU or in a shader:
 * each matrix A (linear part L, translation t) split as A = R S, R the
 * rotation of L's polar decomposition as maniDecomposeAffine finds it (a
 * mirror taken out as a negative x axis first, so R is a proper rotation)
 * and S = R^T L carrying scale, shear and mirror. MANI_DUAL_QUATERNION_FLOATS
 * (20) floats a matrix: R's quaternion q (x, y, z, w with w >= 0), the dual
 * part d = (t, 0) q / 2 (x, y, z, w), then S as three rows of four (the
 * fourth 0). So a point p maps to R (S p) + t. Computed in binary64, each
 * value rounded once to binary32.
 * Returns mani_success; mani_errorInvalid for a NULL pointer with a count or
 * a matrix not finite (dualQuaternionsOut unchanged).
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniConvertPaletteToDualQuaternions(const maniAffine* palette, uint32_t count,
                                                                       float* dualQuaternionsOut);

/* Writes a palette for shaders: each matrix as three rows of four floats
 * (row-major 3x4, MANI_PALETTE_ROW_FLOATS a matrix), the translation last in
 * each row: row r is (c0.r, c1.r, c2.r, c3.r). Values copied, not rounded.
 * Returns mani_success; mani_errorInvalid for a NULL pointer with a count.
 * Safe from any thread. */
MANI_NODISCARD MANI_API maniResult maniConvertPaletteToRows(const maniAffine* palette, uint32_t count,
                                                            float* rowsOut);

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_SKINNING_H */
