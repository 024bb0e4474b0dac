/* Suite "deform": blend.h, skin.h, skinning.h and morph.h, one part a file
 * (deform.h), in a fixed order: a new part is added at the end. */
#include "conformance/suites/deform.h"

void mconf_SuiteDeform(mconf_Run* run);

void mconf_SuiteDeform(mconf_Run* run) {
    mconf_DeformBlend(run);
    mconf_DeformSkinning(run);
    mconf_DeformMorph(run);
}
