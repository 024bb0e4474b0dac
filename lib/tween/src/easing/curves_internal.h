/* Maul Tween: the curves' in forms (curves.c, linear_points.c). Internal. */
#ifndef MAUL_TWEEN_CURVES_INTERNAL_H
#define MAUL_TWEEN_CURVES_INTERNAL_H

#include "lib/tween/src/easing/easing_internal.h"

double mtwn_PowerCurve(double k, double q);
double mtwn_SineCurve(double q);
double mtwn_ExpoCurve(double q);
double mtwn_CircCurve(double q);
double mtwn_BounceOut(double u);
double mtwn_BounceCurve(double q);
double mtwn_BackCurve(const double* params, double q);
double mtwn_ElasticG(double a, double c, double w, double u);
double mtwn_ElasticCurve(const double* params, double q);
double mtwn_StepsCurve(uint32_t count, uint32_t position, double x, bool before);
/* CSS linear()'s evaluation over points (canonical or changed by the host:
 * then finite and unspecified); not clamped to the doubles' range. */
double mtwn_LinearPointsCurve(const mtwnLinearPoint* points, uint32_t count, double x);

#endif
