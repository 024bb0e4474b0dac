/* What the open, the accessors and the job share (runtime only). */
#ifndef MAUL_ANIM_MORPH_INTERNAL_H
#define MAUL_ANIM_MORPH_INTERNAL_H

#include "lib/anim/src/morph/morph_format.h"

/* Whether a view was written by an open and its counts fit its file. */
int mani_MorphViewOk(const maniMorphTargets* m);

/* Word `word` of a target's record, as the bytes hold it (view ok, target
 * below the count). */
uint32_t mani_MorphTargetWord(const maniMorphTargets* m, uint32_t target, uint32_t word);

#endif
