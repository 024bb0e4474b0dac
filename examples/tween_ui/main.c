/* examples/tween_ui: a button's opacity eased in, its colour mixed in OKLab
 * and its offset sprung to rest, driven frame by frame at 60 Hz, printing the
 * values a UI would draw. Built against an installed Maul (pkg-config or
 * CMake: examples/README.md). Prints the final values, and exits 0 when every
 * call succeeded and each value reached its end. */
#include <maul/tween/context.h>
#include <maul/tween/easing.h>
#include <maul/tween/interpolate.h>
#include <maul/tween/spring.h>
#include <maul/tween/target.h>
#include <maul/tween/transition.h>
#include <math.h>
#include <stdio.h>

static mtwnVec4 Vec(float x, float y, float z, float w) {
    mtwnVec4 v = {x, y, z, w};
    return v;
}

int main(void) {
    mtwnContextDef def = mtwnDefaultContextDef();
    mtwnContext* ui = NULL;
    if (mtwnCreateContext(&def, &ui) != mtwn_success) return 1;

    mtwnTargetId opacity, colour, offset;
    if (mtwnCreateTarget(ui, mtwn_valueScalar, Vec(0, 0, 0, 0), &opacity) != mtwn_success ||
        mtwnCreateTarget(ui, mtwn_valueColor, Vec(0.2f, 0.4f, 0.9f, 1), &colour) != mtwn_success ||
        mtwnCreateTarget(ui, mtwn_valueScalar, Vec(-40, 0, 0, 0), &offset) != mtwn_success)
        return 1;

    /* Opacity: CSS's ease-out over 0.3 s. */
    mtwnTransitionDef fade = mtwnDefaultTransitionDef();
    fade.target = opacity;
    fade.value = Vec(1, 0, 0, 0);
    fade.duration = 0.3;
    if (mtwnMakeCubicBezierEasing(0.0, 0.0, 0.58, 1.0, &fade.easing) != mtwn_success) return 1;

    /* Colour: to orange over 0.5 s, mixed in OKLab, 0.1 s late. */
    mtwnTransitionDef tint = mtwnDefaultTransitionDef();
    tint.target = colour;
    tint.value = Vec(1.0f, 0.55f, 0.1f, 1);
    tint.delay = 0.1;
    tint.duration = 0.5;
    tint.easing = mtwnMakeLinearEasing();
    tint.colorSpace = mtwn_colorOklab;

    /* Offset: a spring from -40 px to 0 until it rests. */
    mtwnTransitionDef slide = mtwnDefaultTransitionDef();
    slide.kind = mtwn_transitionSpring;
    slide.target = offset;
    slide.value = Vec(0, 0, 0, 0);
    if (mtwnMakeSpring(170.0, 26.0, 1.0, &slide.spring) != mtwn_success) return 1;

    mtwnPlayerId p;
    if (mtwnStartTransition(ui, &fade, &p) != mtwn_success || mtwnStartTransition(ui, &tint, &p) != mtwn_success ||
        mtwnStartTransition(ui, &slide, &p) != mtwn_success)
        return 1;

    mtwnVec4 o = {0}, c = {0}, x = {0};
    for (uint64_t frame = 0; frame <= 120; ++frame) {
        uint64_t nanoseconds = frame * 1000000000ull / 60u;
        if (mtwnContext_Update(ui, nanoseconds, NULL, 0, NULL) != mtwn_success) return 1;
        if (mtwnTarget_GetValue(ui, opacity, &o) != mtwn_success || mtwnTarget_GetValue(ui, colour, &c) != mtwn_success ||
            mtwnTarget_GetValue(ui, offset, &x) != mtwn_success)
            return 1;
        if (frame % 12 == 0)
            printf("t=%.3f s  opacity %.4f  colour (%.3f %.3f %.3f)  offset %8.3f px\n", (double)frame / 60.0,
                   (double)o.x, (double)c.x, (double)c.y, (double)c.z, (double)x.x);
    }
    mtwnDestroyContext(ui);
    int done = o.x == 1.0f && fabsf(c.x - 1.0f) < 1e-6f && fabsf(x.x) < 0.01f;
    printf("%s\n", done ? "every value reached its end" : "a value did not reach its end");
    return done ? 0 : 1;
}
