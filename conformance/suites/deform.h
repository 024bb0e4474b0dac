/* Suite "deform": its parts, one file each, run in this order by
 * mconf_SuiteDeform (deform.c). A part only appends cases. */
#ifndef MAUL_CONFORMANCE_SUITES_DEFORM_H
#define MAUL_CONFORMANCE_SUITES_DEFORM_H

#include "conformance/framework/conformance.h"

void mconf_DeformBlend(mconf_Run* run); /* blend.h: deform_blend.c */
void mconf_DeformSkinning(mconf_Run* run); /* skin.h palettes, skinning.h, build.h influences: deform_skinning.c */
void mconf_DeformMorph(mconf_Run* run); /* morph.h: deform_morph.c */

#endif
