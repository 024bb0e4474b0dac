/* Suite "ik": its parts, one file each, run in this order by mconf_SuiteIk
 * (ik.c). A part only appends cases; shared helpers below. */
#ifndef MAUL_CONFORMANCE_SUITES_IK_H
#define MAUL_CONFORMANCE_SUITES_IK_H

#include "conformance/framework/conformance.h"
#include "maul/anim/pose.h"

/* ik.h's chain solvers (two-bone, aim, CCD, FABRIK): ik_chain.c. Cases
 * prefixed twobone-, aim-, ccd- and fabrik-. */
void mconf_IkChain(mconf_Run* run);

/* bodyik.h's full-body solvers (XPBD, SDLS): ik_body.c. Cases prefixed
 * xpbd- and sdls-. */
void mconf_IkBody(mconf_Run* run);

/* A seeded pose in fresh memory (free() *memory), NULL on failure. */
maniPose* mconf_IkNewPose(const maniSkeleton* skeleton, void** memory);

/* Appends every local of the pose, field by field, to b. */
void mconf_IkAddLocals(mconf_Bytes* b, const maniPose* pose);

/* Records a solve's case: its code, reached (for a success) and every local. */
void mconf_IkRecordSolve(mconf_Run* run, const char* name, maniResult r, bool reached, const maniPose* pose);

#endif
