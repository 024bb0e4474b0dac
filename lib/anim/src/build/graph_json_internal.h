/* maniBuildGraphJson's reading, apart from its build: the source a graph's
 * JSON text form reads as, handed to a caller's function while the reader's
 * memory holds it (the build in maniBuildGraphJson; the write -> build ->
 * write check in fuzz/graph_json_fuzzer.c). */
#ifndef MAUL_ANIM_GRAPH_JSON_INTERNAL_H
#define MAUL_ANIM_GRAPH_JSON_INTERNAL_H

#include "maul/anim/graphbuild.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is done with a source read: its result is the read's. */
typedef maniBuildResult (*mani_GraphSourceUse)(void* user, maniBuilder* builder, const maniGraphSource* source);

/* Reads a graph's JSON text as maniBuildGraphJson does and, when the text
 * follows the form, gives the source to `use` (the source's memory is the
 * builder's, freed on return). Returns as maniBuildGraphJson with `use` in
 * place of maniBuildGraph. */
maniBuildResult mani_ReadGraphJson(maniBuilder* builder, const char* text, size_t length,
                                   const maniGraphNamedAssets* assets, mani_GraphSourceUse use, void* user);

#ifdef __cplusplus
}
#endif

#endif
