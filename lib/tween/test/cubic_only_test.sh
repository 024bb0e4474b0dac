#!/bin/sh
# The program of cubic_only_main.c, linked with --gc-sections, holds none of
# mtwnSampleEasing's dispatch, Penner's curves, the other CSS curves, the
# spring easing or the math core's elementary functions (easing.h,
# mtwnSampleCubicBezierEasing).
set -eu
bin="$1"
"$bin" >/dev/null
syms=$(nm "$bin")
echo "$syms" | grep -q ' T mtwnSampleCubicBezierEasing$' || { echo "mtwnSampleCubicBezierEasing missing"; exit 1; }
fail=0
for s in mtwnSampleEasing mtwn_SampleEasingUnchecked mtwn_SampleEasingMonotone mtwn_SampleSpringEasing \
         mtwn_PowerCurve mtwn_SineCurve mtwn_ExpoCurve mtwn_CircCurve mtwn_BounceOut mtwn_BounceCurve \
         mtwn_BackCurve mtwn_ElasticCurve mtwn_ElasticG mtwn_StepsCurve mtwn_LinearPointsCurve \
         mtwn_CubicBezierCurveMonotone mtwnSetEaseMode mtwn_IsEasingValid \
         mcore_sin mcore_exp2 mcore_pow mcore_asin; do
    if echo "$syms" | grep -q " $s\$"; then
        echo "unexpected symbol: $s"
        fail=1
    fi
done
exit $fail
