/* The skinning area's internal declarations. */
#ifndef MAUL_ANIM_SKINNING_INTERNAL_H
#define MAUL_ANIM_SKINNING_INTERNAL_H

#include "maul/anim/skinning.h"

/* Whether an influences view was written by an open and its counts fit its
 * file. */
int mani_InfluencesViewOk(const maniInfluences* v);

/* The skinning methods. */
enum { mani_skinLinear = 0, mani_skinDualQuaternion = 1, mani_skinBlended = 2, mani_skinCenters = 3 };

/* Runs a skinning job with the configured backend's kernels, or with the
 * scalar reference's when reference is not 0 (tests compare the bits). */
maniResult mani_SkinRun(const maniSkinJob* job, int method, int reference);

#endif
