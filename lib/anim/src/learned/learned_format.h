/* The learned model file format (docs/formats.md, "Learned model"): shared
 * by the open (runtime) and the builder (offline). */
#ifndef MAUL_ANIM_LEARNED_FORMAT_H
#define MAUL_ANIM_LEARNED_FORMAT_H

#include <stdint.h>

#include "lib/anim/src/match/match_format.h"
#include "lib/core/container.h"
#include "maul/anim/learned.h"

#define MANI_LEARNED_TAG(id) MCORE_TAG(mcore_formatLearnedModel1, id)
#define MANI_LEARNED_INFO MANI_LEARNED_TAG(1)          /* the header: MANI_LEARNED_INFO_SIZE bytes, below */
#define MANI_LEARNED_CHANNELS MANI_LEARNED_TAG(2)      /* the database's channels, MANI_MATCH_CHANNEL_SIZE bytes each */
#define MANI_LEARNED_NORMALIZATION MANI_LEARNED_TAG(3) /* f32 offsets then f32 scales, one per feature */
#define MANI_LEARNED_BONE_SCALES MANI_LEARNED_TAG(4)   /* f32 x, y, z per bone: the constant scales */
#define MANI_LEARNED_SCALED_BONES MANI_LEARNED_TAG(5)  /* u32 per scaled bone, increasing */
#define MANI_LEARNED_NAME_INDEX MANI_LEARNED_TAG(6)    /* u32 offset, length per float track then per event */
#define MANI_LEARNED_NAMES MANI_LEARNED_TAG(7)         /* the names' UTF-8 bytes */
#define MANI_LEARNED_NETWORKS MANI_LEARNED_TAG(8)      /* per network: u32 layer count, required, excluded, 0 */
#define MANI_LEARNED_LAYERS MANI_LEARNED_TAG(9)        /* per layer of every network in order: u32 inputs, outputs */
#define MANI_LEARNED_PARAMETERS MANI_LEARNED_TAG(10)   /* every network's parameters, laid out below */
#define MANI_LEARNED_SECTION_COUNT 10u

/* The header: u64 skeleton identity, u64 database identity, u32 bones,
 * features, latent values, channels, Projectors, float tracks, events,
 * scaled bones, weight format, up axis, forward axis, f32 step rate, u32
 * names size, layers (all networks), then 0 to 96 bytes. */
#define MANI_LEARNED_INFO_SIZE 96u
#define MANI_LEARNED_NETWORK_SIZE 16u
#define MANI_LEARNED_LAYER_SIZE 8u
/* The most networks: the Decompressor, the Stepper and the Projectors. */
#define MANI_LEARNED_MAX_NETWORKS (2u + 16u)

/* The value maniLearnedModel.opened holds once an open wrote the view. */
#define MANI_LEARNED_OPENED 0x4C524E44u /* "LRND" */

/* Decompressor outputs besides the bones': root velocity and angular velocity. */
#define MANI_LEARNED_ROOT_OUTPUTS 6u

static const mcore_SectionSpec maniLearnedSections[MANI_LEARNED_SECTION_COUNT] = {
    {MANI_LEARNED_INFO, 16},        {MANI_LEARNED_CHANNELS, 16},   {MANI_LEARNED_NORMALIZATION, 16},
    {MANI_LEARNED_BONE_SCALES, 16}, {MANI_LEARNED_SCALED_BONES, 16}, {MANI_LEARNED_NAME_INDEX, 16},
    {MANI_LEARNED_NAMES, 16},       {MANI_LEARNED_NETWORKS, 16},   {MANI_LEARNED_LAYERS, 16},
    {MANI_LEARNED_PARAMETERS, 64},
};

/* The parameters of a network with the given layer shapes (inputs of layer
 * 0, then each layer's outputs), in bytes, in this order: f32 input offsets,
 * f32 input scales; per layer f32 biases[outputs], for 16-bit weights f32
 * scales[inputs] then i16 weights[outputs x inputs] padded with 0 to 4
 * bytes, for binary32 f32 weights[outputs x inputs]; then f32 output
 * offsets, f32 output scales. Weights row by row (output by output). */
static inline uint64_t mani_LearnedLayerBytes(uint64_t inputs, uint64_t outputs, uint32_t format) {
    if (format == 1) return 4u * outputs + 4u * inputs + ((2u * inputs * outputs + 3u) & ~(uint64_t)3u);
    return 4u * outputs + 4u * inputs * outputs;
}

/* The Decompressor's outputs of a model. */
static inline uint64_t mani_LearnedDecompressorOutputs(uint64_t bones, uint64_t scaled, uint64_t tracks,
                                                       uint64_t events) {
    return 9u * bones + 3u * scaled + MANI_LEARNED_ROOT_OUTPUTS + tracks + events;
}

#endif
