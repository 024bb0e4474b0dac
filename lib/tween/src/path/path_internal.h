/* Maul Tween: path internals shared by the path and track sources. Not a
 * public header. */
#ifndef MAUL_TWEEN_PATH_INTERNAL_H
#define MAUL_TWEEN_PATH_INTERNAL_H

#include <stdbool.h>

#include "maul/tween/path.h"

/* A Catmull-Rom segment whose ends coincide: a hold. */
#define MTWN_PATH_HOLD 100

/* A segment's cubic: B(u) = c[0] + c[1] u + c[2] u^2 + c[3] u^3 in its
 * channels (0 past them), its ends p0 and p1 exact. */
typedef struct mtwn_Cubic {
    int kind; /* mtwnSegmentKind or MTWN_PATH_HOLD */
    uint32_t channels;
    double p0[4];
    double p1[4];
    double c[4][4];
} mtwn_Cubic;

bool mtwn_IsKeyframeValid(const mtwnKeyframe* k, const mtwnKeyframe* prev, bool last, uint32_t channels);
int mtwn_SegmentCubic(const mtwnPath* path, uint32_t i, mtwn_Cubic* out);
void mtwn_CubicValue(const mtwn_Cubic* q, double u, double out[4]);
double mtwn_SegmentLength(const mtwn_Cubic* q);

/* Finds the segment and its parameter for a progress: 0 with *segmentOut,
 * *uOut and the cubic; 1 for a path of one keyframe; -1 for a path or
 * segment no maker produced. */
int mtwn_PathLocate(const mtwnPath* path, double progress, uint32_t* segmentOut, double* uOut, mtwn_Cubic* cubic,
                    bool* metNaN);
/* mtwnSampleTrack, setting *metNaN (may be NULL) when the segment's
 * keyframe easing is a host function that gave NaN (its progress taken). */
mtwnResult mtwn_SampleTrackNoting(const mtwnTrack* track, double progress, mtwnVec4* valueOut, bool* metNaN);
/* mtwn_PathLocate and mtwn_SampleTrackNoting for keyframes known valid (a
 * clip's, validated by mtwnMakeTrack when added and never changed while the
 * clip lives): the same results, the keyframes not validated again. */
int mtwn_PathLocateValid(const mtwnPath* path, double progress, uint32_t* segmentOut, double* uOut, mtwn_Cubic* cubic,
                         bool* metNaN);
mtwnResult mtwn_SampleValidTrackNoting(const mtwnTrack* track, double progress, mtwnVec4* valueOut, bool* metNaN);

#endif
