/* maul report: Maul files and easings as one self-contained HTML page of
 * inline SVG (tools/cli/report.h). */
#include "tools/cli/report.h"

#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedbuild.h"
#include "maul/anim/pose.h"
#include "maul/anim/skeleton.h"
#include "maul/tween/easing.h"
#include "tools/cli/import.h"

#define MAUL_REPORT_MAX_FILES 64
#define MAUL_REPORT_COLOURS 8

static const char* const maul_colours[MAUL_REPORT_COLOURS] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                                              "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

/* -- Files ------------------------------------------------------------------ */

typedef enum maul_ReportKind {
    maul_reportOther,
    maul_reportSkeleton,
    maul_reportClip,
    maul_reportGraph,
    maul_reportLearned
} maul_ReportKind;

typedef struct maul_ReportFile {
    const char* path;
    void* bytes;
    size_t size;
    maul_ReportKind kind;
    maniSkeleton skeleton;
    maniClip clip;
    maniGraph graph;
    maniLearnedModel learned;
    uint32_t fileKind; /* the container's kind */
} maul_ReportFile;

/* Opens a file as the kind its header names; returns 0 when its open refuses it. */
static int maul_ReportOpen(maul_ReportFile* f) {
    const uint8_t* b = (const uint8_t*)f->bytes;
    f->kind = maul_reportOther;
    f->fileKind = 0;
    if (f->size < 64 || memcmp(b, "MAUL", 4) != 0) return 0;
    f->fileKind = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    maniFileResult r = {mani_success, 0};
    switch (f->fileKind) {
        case 1:
            r = maniOpenSkeleton(f->bytes, f->size, &f->skeleton);
            f->kind = maul_reportSkeleton;
            break;
        case 4:
            r = maniOpenClip(f->bytes, f->size, &f->clip);
            f->kind = maul_reportClip;
            break;
        case 6:
            r = maniOpenGraph(f->bytes, f->size, &f->graph);
            f->kind = maul_reportGraph;
            break;
        case 8:
            r = maniOpenLearnedModel(f->bytes, f->size, &f->learned);
            f->kind = maul_reportLearned;
            break;
        default:
            return 1;
    }
    if (r.result != mani_success) {
        fprintf(stderr, "maul report: %s refused: %s at offset %" PRIu64 "\n", f->path, maniGetResultName(r.result),
                r.offset);
        f->kind = maul_reportOther;
        return 0;
    }
    return 1;
}

/* -- HTML and SVG ------------------------------------------------------------- */

static void maul_Escaped(FILE* out, const char* text, size_t length) {
    for (size_t i = 0; i < length; ++i) {
        char c = text[i];
        if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '&')
            fputs("&amp;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else if ((unsigned char)c >= 0x20)
            fputc(c, out);
    }
}

static void maul_EscapedZ(FILE* out, const char* text) { maul_Escaped(out, text, strlen(text)); }

/* A chart's frame: data ranges mapped onto a plot area with margins for the axes' labels. */
typedef struct maul_Chart {
    FILE* out;
    double x0, x1, y0, y1;
    double left, top, width, height;
} maul_Chart;

static double maul_ChartX(const maul_Chart* c, double x) { return c->left + (x - c->x0) / (c->x1 - c->x0) * c->width; }
static double maul_ChartY(const maul_Chart* c, double y) {
    return c->top + c->height - (y - c->y0) / (c->y1 - c->y0) * c->height;
}

static void maul_ChartBegin(maul_Chart* c, FILE* out, const char* kind, const char* title, double x0, double x1,
                            double y0, double y1, const char* xLabel, const char* yLabel) {
    c->out = out;
    c->x0 = x0;
    c->x1 = x1 > x0 ? x1 : x0 + 1.0;
    c->y0 = y0;
    c->y1 = y1 > y0 ? y1 : y0 + 1.0;
    c->left = 70;
    c->top = 30;
    c->width = 520;
    c->height = 220;
    fprintf(out, "<svg data-kind=\"%s\" width=\"620\" height=\"300\" viewBox=\"0 0 620 300\">\n", kind);
    fprintf(out, "<text x=\"310\" y=\"18\" text-anchor=\"middle\" class=\"title\">");
    maul_EscapedZ(out, title);
    fprintf(out, "</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"frame\"/>\n", c->left,
            c->top, c->width, c->height);
    for (int i = 0; i <= 4; ++i) {
        double xv = c->x0 + (c->x1 - c->x0) * i / 4.0, yv = c->y0 + (c->y1 - c->y0) * i / 4.0;
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tick\">%.3g</text>\n",
                maul_ChartX(c, xv), c->top + c->height + 14, xv);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%.3g</text>\n", c->left - 4,
                maul_ChartY(c, yv) + 4, yv);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"292\" text-anchor=\"middle\" class=\"label\">", c->left + c->width / 2);
    maul_EscapedZ(out, xLabel);
    fprintf(out, "</text>\n<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" class=\"label\" transform=\"rotate(-90 14 %.1f)\">",
            c->top + c->height / 2, c->top + c->height / 2);
    maul_EscapedZ(out, yLabel);
    fprintf(out, "</text>\n");
}

static void maul_ChartLine(maul_Chart* c, const double* xs, const double* ys, size_t n, const char* colour,
                           const char* cssClass) {
    fprintf(c->out, "<polyline class=\"%s\" stroke=\"%s\" points=\"", cssClass, colour);
    for (size_t i = 0; i < n; ++i) {
        double y = ys[i] < c->y0 ? c->y0 : ys[i] > c->y1 ? c->y1 : ys[i];
        fprintf(c->out, "%.1f,%.1f ", maul_ChartX(c, xs[i]), maul_ChartY(c, y));
    }
    fprintf(c->out, "\"/>\n");
}

static void maul_ChartEnd(maul_Chart* c) { fprintf(c->out, "</svg>\n"); }

/* -- Skeletons and poses --------------------------------------------------------- */

typedef struct maul_PoseBuffer {
    void* memory;
    maniPose* pose;
} maul_PoseBuffer;

static int maul_PoseMake(maul_PoseBuffer* p, const maniSkeleton* s) {
    size_t size = maniSkeleton_GetPoseSize(s);
    p->pose = NULL;
    p->memory = aligned_alloc(MANI_POSE_ALIGNMENT, (size + MANI_POSE_ALIGNMENT - 1) & ~(size_t)(MANI_POSE_ALIGNMENT - 1));
    return p->memory != NULL && maniInitPose(s, p->memory, size, &p->pose) == mani_success;
}

/* Draws poses (each a list of model positions, bone by bone) in a front and a side view. */
static void maul_DrawSkeletonViews(FILE* out, const char* kind, const char* title, const maniSkeleton* s,
                                   const maniVec3* positions, uint32_t poseCount) {
    uint32_t bones = maniSkeleton_GetBoneCount(s);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < bones * poseCount; ++i) {
        const float v[3] = {positions[i].x, positions[i].y, positions[i].z};
        for (int a = 0; a < 3; ++a) {
            if (isfinite(v[a]) && v[a] < lo[a]) lo[a] = v[a];
            if (isfinite(v[a]) && v[a] > hi[a]) hi[a] = v[a];
        }
    }
    double extent = 1e-6;
    for (int a = 0; a < 3; ++a) {
        if (!(hi[a] >= lo[a])) lo[a] = hi[a] = 0;
        if (hi[a] - lo[a] > extent) extent = hi[a] - lo[a];
    }
    double scale = 260.0 / extent;
    fprintf(out, "<svg data-kind=\"%s\" width=\"620\" height=\"320\" viewBox=\"0 0 620 320\">\n", kind);
    fprintf(out, "<text x=\"310\" y=\"16\" text-anchor=\"middle\" class=\"title\">");
    maul_EscapedZ(out, title);
    fprintf(out, "</text>\n<text x=\"155\" y=\"314\" text-anchor=\"middle\" class=\"label\">front (x, y)</text>\n");
    fprintf(out, "<text x=\"465\" y=\"314\" text-anchor=\"middle\" class=\"label\">side (z, y)</text>\n");
    for (int view = 0; view < 2; ++view) {
        int h = view == 0 ? 0 : 2; /* the horizontal axis: x, then z */
        double cx = view == 0 ? 155.0 : 465.0;
        double mid = (lo[h] + hi[h]) / 2;
        for (uint32_t p = 0; p < poseCount; ++p) {
            const maniVec3* pos = positions + (size_t)p * bones;
            fprintf(out, "<g stroke=\"%s\" class=\"bones\">", maul_colours[p % MAUL_REPORT_COLOURS]);
            for (uint32_t b = 0; b < bones; ++b) {
                uint32_t parent = maniSkeleton_GetParent(s, b);
                const float* v = &pos[b].x;
                double x = cx + (v[h] - mid) * scale, y = 300.0 - (pos[b].y - lo[1]) * scale;
                if (parent != MANI_NO_BONE) {
                    const float* w = &pos[parent].x;
                    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", cx + (w[h] - mid) * scale,
                            300.0 - (pos[parent].y - lo[1]) * scale, x, y);
                }
                fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>", x, y);
            }
            fprintf(out, "</g>\n");
        }
    }
    fprintf(out, "</svg>\n");
}

static void maul_ReadPositions(const maniPose* pose, uint32_t bones, maniVec3* out) {
    for (uint32_t b = 0; b < bones; ++b) out[b] = maniPose_GetModel(pose, b).columns[3];
}

static void maul_ReportSkeleton(FILE* out, const maul_ReportFile* f) {
    uint32_t bones = maniSkeleton_GetBoneCount(&f->skeleton);
    maul_PoseBuffer p;
    maniVec3* positions = (maniVec3*)calloc(bones ? bones : 1, sizeof(maniVec3));
    if (positions != NULL && maul_PoseMake(&p, &f->skeleton)) {
        maul_ReadPositions(p.pose, bones, positions);
        char title[256];
        snprintf(title, sizeof title, "rest pose, %u bones", bones);
        maul_DrawSkeletonViews(out, "skeleton", title, &f->skeleton, positions, 1);
    }
    if (positions != NULL) free(p.memory);
    free(positions);
    fprintf(out, "<details><summary>bone tree</summary><pre>");
    for (uint32_t b = 0; b < bones; ++b) {
        uint32_t depth = 0;
        for (uint32_t q = maniSkeleton_GetParent(&f->skeleton, b); q != MANI_NO_BONE && depth < bones;
             q = maniSkeleton_GetParent(&f->skeleton, q))
            depth++;
        size_t n = 0;
        const char* name = maniSkeleton_GetBoneName(&f->skeleton, b, &n);
        fprintf(out, "%*s%u ", (int)(depth > 40 ? 80 : depth * 2), "", b);
        maul_Escaped(out, name ? name : "", n);
        fputc('\n', out);
    }
    fprintf(out, "</pre></details>\n");
}

/* A turn's angle in degrees (0 to 180). */
static double maul_Angle(maniQuat q) {
    double v = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z);
    return 2.0 * atan2(v, fabs((double)q.w)) * 180.0 / 3.14159265358979323846;
}

#define MAUL_CURVE_POINTS 121
#define MAUL_CURVE_BONES 8

static void maul_ReportClip(FILE* out, const maul_ReportFile* f, const maniSkeleton* s) {
    uint32_t bones = maniSkeleton_GetBoneCount(s);
    float duration = maniClip_GetDuration(&f->clip);
    maul_PoseBuffer p;
    maniVec3* positions = (maniVec3*)calloc((size_t)bones * 5 + 1, sizeof(maniVec3));
    double* angles = (double*)calloc((size_t)bones * MAUL_CURVE_POINTS + 1, sizeof(double));
    if (positions == NULL || angles == NULL || !maul_PoseMake(&p, s)) {
        free(positions);
        free(angles);
        return;
    }
    for (int k = 0; k < 5; ++k) {
        float t = duration * (float)k / 4.0f;
        if (maniClip_Sample(&f->clip, s, t, p.pose) == mani_success && maniPose_ComputeModel(p.pose, s) == mani_success)
            maul_ReadPositions(p.pose, bones, positions + (size_t)k * bones);
    }
    char title[256];
    snprintf(title, sizeof title, "poses at 0, 1/4, 1/2, 3/4 and all of %.3f s (blue to orange)", (double)duration);
    maul_DrawSkeletonViews(out, "clip-pose", title, s, positions, 5);

    /* The bones whose local turn varies most over the clip, their angles over time. */
    double xs[MAUL_CURVE_POINTS];
    for (int i = 0; i < MAUL_CURVE_POINTS; ++i) {
        double t = (double)duration * i / (MAUL_CURVE_POINTS - 1);
        xs[i] = t;
        if (maniClip_Sample(&f->clip, s, (float)t, p.pose) != mani_success) continue;
        for (uint32_t b = 0; b < bones; ++b)
            angles[(size_t)b * MAUL_CURVE_POINTS + i] = maul_Angle(maniPose_GetLocal(p.pose, b).rotation);
    }
    uint32_t chosen[MAUL_CURVE_BONES];
    double ranges[MAUL_CURVE_BONES];
    uint32_t chosenCount = 0;
    for (uint32_t b = 0; b < bones; ++b) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < MAUL_CURVE_POINTS; ++i) {
            double a = angles[(size_t)b * MAUL_CURVE_POINTS + i];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
        }
        double range = hi - lo;
        uint32_t at = chosenCount < MAUL_CURVE_BONES ? chosenCount++ : MAUL_CURVE_BONES;
        if (at == MAUL_CURVE_BONES) {
            at = 0;
            for (uint32_t k = 1; k < MAUL_CURVE_BONES; ++k)
                if (ranges[k] < ranges[at]) at = k;
            if (!(range > ranges[at])) continue;
        }
        chosen[at] = b;
        ranges[at] = range;
    }
    maul_Chart c;
    maul_ChartBegin(&c, out, "clip-curves", "local rotation angle of the most moving bones", 0, duration, 0, 180,
                    "seconds", "degrees");
    for (uint32_t k = 0; k < chosenCount; ++k) {
        maul_ChartLine(&c, xs, angles + (size_t)chosen[k] * MAUL_CURVE_POINTS, MAUL_CURVE_POINTS,
                       maul_colours[k % MAUL_REPORT_COLOURS], "curve");
        size_t n = 0;
        const char* name = maniSkeleton_GetBoneName(s, chosen[k], &n);
        fprintf(out, "<text x=\"596\" y=\"%u\" class=\"legend\" fill=\"%s\">", 40 + 14 * k,
                maul_colours[k % MAUL_REPORT_COLOURS]);
        maul_Escaped(out, name ? name : "", n > 3 ? 3 : n);
        fprintf(out, "</text>\n");
    }
    maul_ChartEnd(&c);
    fprintf(out, "<p>Curves: ");
    for (uint32_t k = 0; k < chosenCount; ++k) {
        size_t n = 0;
        const char* name = maniSkeleton_GetBoneName(s, chosen[k], &n);
        fprintf(out, "%s<span style=\"color:%s\">", k ? ", " : "", maul_colours[k % MAUL_REPORT_COLOURS]);
        maul_Escaped(out, name ? name : "", n);
        fprintf(out, "</span>");
    }
    fprintf(out, ".</p>\n");
    free(p.memory);
    free(positions);
    free(angles);
}

/* A pose's model matrices as the runtime composes them: its locals copied
 * into a plain pose (an additive clip's differences composed as poses) and
 * through maniPose_ComputeModel (binary32), kept as binary64 copies
 * (columns x, y, z, then the translation): the compressor's own measure
 * (build.h, docs/formats.md "What the precision promises"), so the picture
 * shows what its guarantee bounds. Returns 0 when the model pass refuses. */
static int maul_ModelsRuntime(const maniPose* pose, maniPose* plain, const maniSkeleton* s, uint32_t bones,
                              double* models) {
    for (uint32_t b = 0; b < bones; ++b) maniPose_SetLocal(plain, b, maniPose_GetLocal(pose, b));
    if (maniPose_ComputeModel(plain, s) != mani_success) return 0;
    for (uint32_t b = 0; b < bones; ++b) {
        const maniAffine m = maniPose_GetModel(plain, b);
        for (int c = 0; c < 4; ++c) {
            models[12 * (size_t)b + 3 * c] = m.columns[c].x;
            models[12 * (size_t)b + 3 * c + 1] = m.columns[c].y;
            models[12 * (size_t)b + 3 * c + 2] = m.columns[c].z;
        }
    }
    return 1;
}

/* The worst distance of a bone's three shell vertices (distance d on its axes). */
static double maul_ShellError(const double* a, const double* b, double d) {
    double worst = 0;
    for (int axis = 0; axis < 3; ++axis) {
        double e2 = 0;
        for (int k = 0; k < 3; ++k) {
            double va = a[3 * axis + k] * d + a[9 + k], vb = b[3 * axis + k] * d + b[9 + k];
            e2 += (va - vb) * (va - vb);
        }
        if (e2 > worst * worst) worst = sqrt(e2);
    }
    return worst;
}

static void maul_ReportCompression(FILE* out, const maul_ReportFile* full, const maul_ReportFile* small,
                                   const maniSkeleton* s, double precision, double shell) {
    uint32_t bones = maniSkeleton_GetBoneCount(s);
    uint32_t samples = maniClip_GetSampleCount(&full->clip);
    float rate = maniClip_GetSampleRate(&full->clip);
    uint32_t points = samples > 0 ? 2 * samples - 1 : 0;
    maul_PoseBuffer a, b, plain;
    double* xs = (double*)calloc(points + 1, sizeof(double));
    double* worst = (double*)calloc(points + 1, sizeof(double));
    double* perBone = (double*)calloc(bones + 1, sizeof(double));
    double* models = (double*)calloc((size_t)bones * 24 + 1, sizeof(double));
    int made = xs != NULL && worst != NULL && perBone != NULL && models != NULL && maul_PoseMake(&a, s);
    if (made && !maul_PoseMake(&b, s)) {
        free(a.memory);
        made = 0;
    }
    if (made && !maul_PoseMake(&plain, s)) {
        free(a.memory);
        free(b.memory);
        made = 0;
    }
    if (!made) {
        free(xs);
        free(worst);
        free(perBone);
        free(models);
        return;
    }
    double top = precision;
    for (uint32_t i = 0; i < points; ++i) {
        float t = rate > 0 ? (float)((double)i / (2.0 * rate)) : 0.0f;
        xs[i] = t;
        if (maniClip_Sample(&full->clip, s, t, a.pose) != mani_success ||
            maniClip_Sample(&small->clip, s, t, b.pose) != mani_success)
            continue;
        if (!maul_ModelsRuntime(a.pose, plain.pose, s, bones, models) ||
            !maul_ModelsRuntime(b.pose, plain.pose, s, bones, models + 12 * (size_t)bones))
            continue;
        for (uint32_t k = 0; k < bones; ++k) {
            double e = maul_ShellError(models + 12 * (size_t)k, models + 12 * ((size_t)bones + k), shell);
            if (e > worst[i]) worst[i] = e;
            if (e > perBone[k]) perBone[k] = e;
        }
        if (worst[i] > top) top = worst[i];
    }
    char title[256];
    double overall = 0;
    for (uint32_t i = 0; i < points; ++i) overall = worst[i] > overall ? worst[i] : overall;
    snprintf(title, sizeof title, "shell error over the clip (shell %.3g): worst %.6e against the precision %.3g",
             shell, overall, precision);
    maul_Chart c;
    maul_ChartBegin(&c, out, "compression", title, 0, xs[points ? points - 1 : 0], 0, top * 1.15, "seconds",
                    "distance");
    maul_ChartLine(&c, xs, worst, points, maul_colours[0], "curve");
    double line[2] = {precision, precision}, ends[2] = {0, xs[points ? points - 1 : 0]};
    maul_ChartLine(&c, ends, line, 2, maul_colours[1], "limit");
    maul_ChartEnd(&c);
    /* Each bone's worst as a bar, the precision as a line. */
    fprintf(out, "<svg data-kind=\"compression-bones\" width=\"620\" height=\"%u\" viewBox=\"0 0 620 %u\">\n",
            30 + 14 * bones, 30 + 14 * bones);
    fprintf(out, "<text x=\"310\" y=\"16\" text-anchor=\"middle\" class=\"title\">each bone's worst shell error</text>\n");
    double full_ = top * 1.15;
    for (uint32_t k = 0; k < bones; ++k) {
        size_t n = 0;
        const char* name = maniSkeleton_GetBoneName(s, k, &n);
        double w = perBone[k] / full_ * 380.0;
        fprintf(out, "<text x=\"196\" y=\"%u\" text-anchor=\"end\" class=\"tick\">", 34 + 14 * k);
        maul_Escaped(out, name ? name : "", n > 28 ? 28 : n);
        fprintf(out, "</text><rect x=\"200\" y=\"%u\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>\n", 25 + 14 * k, w,
                perBone[k] > precision ? maul_colours[1] : maul_colours[0]);
    }
    fprintf(out, "<line x1=\"%.1f\" y1=\"24\" x2=\"%.1f\" y2=\"%u\" class=\"limit\" stroke=\"%s\"/>\n",
            200 + precision / full_ * 380.0, 200 + precision / full_ * 380.0, 26 + 14 * bones, maul_colours[1]);
    fprintf(out, "</svg>\n");
    free(a.memory);
    free(b.memory);
    free(plain.memory);
    free(xs);
    free(worst);
    free(perBone);
    free(models);
}

/* -- Graphs ------------------------------------------------------------------------ */

static void maul_ReportGraph(FILE* out, const maul_ReportFile* f) {
    uint32_t nodes = maniGraph_GetNodeCount(&f->graph);
    uint32_t* depth = (uint32_t*)calloc(nodes + 1, sizeof(uint32_t));
    uint32_t* column = (uint32_t*)calloc(nodes + 1, sizeof(uint32_t));
    uint32_t* perDepth = (uint32_t*)calloc(nodes + 1, sizeof(uint32_t));
    if (depth == NULL || column == NULL || perDepth == NULL) {
        free(depth);
        free(column);
        free(perDepth);
        return;
    }
    /* Inputs come before the nodes that read them: walking from the output down
     * the order gives every node its deepest distance from the output. */
    uint32_t output = maniGraph_GetOutputNode(&f->graph), maxDepth = 0;
    for (uint32_t n = nodes; n-- > 0;) {
        uint32_t inputs = maniGraph_GetNodeInputCount(&f->graph, n);
        for (uint32_t i = 0; i < inputs; ++i) {
            uint32_t in = maniGraph_GetNodeInput(&f->graph, n, i);
            if (in < nodes && in < n && depth[n] + 1 > depth[in]) depth[in] = depth[n] + 1;
        }
    }
    for (uint32_t n = 0; n < nodes; ++n) {
        column[n] = perDepth[depth[n]]++;
        if (depth[n] > maxDepth) maxDepth = depth[n];
    }
    uint32_t widest = 1;
    for (uint32_t d = 0; d <= maxDepth; ++d) widest = perDepth[d] > widest ? perDepth[d] : widest;
    unsigned width = 40 + 130 * widest, height = 50 + 60 * (maxDepth + 1);
    fprintf(out, "<svg data-kind=\"graph\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\">\n", width, height, width,
            height);
    fprintf(out, "<text x=\"%u\" y=\"16\" text-anchor=\"middle\" class=\"title\">%u nodes, output node %u at the top</text>\n",
            width / 2, nodes, output);
#define MAUL_NODE_X(n) (20.0 + 130.0 * column[n] + 130.0 * (widest - perDepth[depth[n]]) / 2.0)
#define MAUL_NODE_Y(n) (30.0 + 60.0 * depth[n])
    for (uint32_t n = 0; n < nodes; ++n) {
        uint32_t inputs = maniGraph_GetNodeInputCount(&f->graph, n);
        for (uint32_t i = 0; i < inputs; ++i) {
            uint32_t in = maniGraph_GetNodeInput(&f->graph, n, i);
            if (in >= nodes) continue;
            fprintf(out, "<line class=\"edge\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", MAUL_NODE_X(n) + 55,
                    MAUL_NODE_Y(n) + 28, MAUL_NODE_X(in) + 55, MAUL_NODE_Y(in));
        }
    }
    for (uint32_t n = 0; n < nodes; ++n) {
        fprintf(out, "<g class=\"node\"><rect x=\"%.1f\" y=\"%.1f\" width=\"110\" height=\"28\" rx=\"4\"/>",
                MAUL_NODE_X(n), MAUL_NODE_Y(n));
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%u %s</text></g>\n", MAUL_NODE_X(n) + 55,
                MAUL_NODE_Y(n) + 18, n, maul_GraphNodeKindName((unsigned)maniGraph_GetNodeKind(&f->graph, n)));
    }
#undef MAUL_NODE_X
#undef MAUL_NODE_Y
    fprintf(out, "</svg>\n");
    free(depth);
    free(column);
    free(perDepth);
}

/* -- Learned models ------------------------------------------------------------------------ */

#define MAUL_ROLLOUT_STEPS 60
#define MAUL_ROLLOUT_POSES 5
#define MAUL_ROLLOUT_LATENT 4

/* What a learned model does left to run: its first Projector's state for
 * the database's mean query (every feature at its normalization's offset),
 * stepped MAUL_ROLLOUT_STEPS times and decompressed at each step: five poses
 * of the rollout drawn over each other, the root's speed and the first
 * latent values over the steps. */
static void maul_ReportLearned(FILE* out, const maul_ReportFile* f, const maniSkeleton* s) {
    const maniLearnedModel* m = &f->learned;
    const uint32_t features = m->featureCount, count = m->featureCount + m->latentCount;
    const uint32_t bones = maniSkeleton_GetBoneCount(s);
    const size_t scratchSize = maniLearnedModel_GetScratchSize(m);
    float* query = (float*)calloc(features ? features : 1, sizeof(float));
    float* state = (float*)calloc(count ? count : 1, sizeof(float));
    float* tracks = (float*)calloc(m->floatTrackCount + 1, sizeof(float));
    float* events = (float*)calloc(m->eventCount + 1, sizeof(float));
    maniVec3* positions = (maniVec3*)calloc((size_t)bones * MAUL_ROLLOUT_POSES + 1, sizeof(maniVec3));
    double* steps = (double*)calloc(MAUL_ROLLOUT_STEPS + 1, sizeof(double));
    double* values = (double*)calloc((size_t)(MAUL_ROLLOUT_STEPS + 1) * (1 + MAUL_ROLLOUT_LATENT), sizeof(double));
    void* scratch = aligned_alloc(MANI_LEARNED_SCRATCH_ALIGNMENT,
                                  (scratchSize + MANI_LEARNED_SCRATCH_ALIGNMENT) & ~(size_t)(MANI_LEARNED_SCRATCH_ALIGNMENT - 1));
    maul_PoseBuffer p = {NULL, NULL};
    const char* failed = NULL;
    if (query == NULL || state == NULL || tracks == NULL || events == NULL || positions == NULL || steps == NULL ||
        values == NULL || scratch == NULL || !maul_PoseMake(&p, s)) {
        failed = "out of memory";
    } else if (maniLearnedModel_GetNormalization(m, query, NULL, features, NULL) != mani_success ||
               maniLearnedModel_Project(m, 0, query, state, count, NULL, scratch, scratchSize) != mani_success) {
        failed = "its first Projector gave no state for the mean query";
    }
    uint32_t drawn = 0, latent = m->latentCount < MAUL_ROLLOUT_LATENT ? m->latentCount : MAUL_ROLLOUT_LATENT;
    int stepsDone = 0;
    for (int k = 0; failed == NULL && k <= MAUL_ROLLOUT_STEPS; ++k) {
        maniLearnedOutput o;
        memset(&o, 0, sizeof o);
        o.pose = p.pose;
        o.floatTracks = tracks;
        o.floatTrackCapacity = m->floatTrackCount;
        o.eventStates = events;
        o.eventCapacity = m->eventCount;
        if (maniLearnedModel_Decompress(m, state, &o, scratch, scratchSize) != mani_success) {
            failed = "its Decompressor gave a value past the float range";
            break;
        }
        steps[k] = k;
        const maniVec3 v = o.rootVelocity;
        values[k] = sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
        for (uint32_t l = 0; l < latent; ++l) values[(size_t)(1 + l) * (MAUL_ROLLOUT_STEPS + 1) + k] = state[features + l];
        if (k % (MAUL_ROLLOUT_STEPS / (MAUL_ROLLOUT_POSES - 1)) == 0 && drawn < MAUL_ROLLOUT_POSES)
            maul_ReadPositions(p.pose, bones, positions + (size_t)bones * drawn++);
        stepsDone = k + 1;
        if (k < MAUL_ROLLOUT_STEPS && maniLearnedModel_Step(m, state, scratch, scratchSize) != mani_success) {
            failed = "its Stepper took a value past the float range";
            break;
        }
    }
    if (drawn > 0) {
        char title[256];
        snprintf(title, sizeof title, "rollout from the mean query: steps 0, 15, 30, 45, 60 at %.4g Hz", (double)m->stepRate);
        maul_DrawSkeletonViews(out, "learned-rollout", title, s, positions, drawn);
    }
    if (stepsDone > 1) {
        double lo = INFINITY, hi = -INFINITY;
        for (uint32_t c = 0; c <= latent; ++c)
            for (int k = 0; k < stepsDone; ++k) {
                const double v = values[(size_t)c * (MAUL_ROLLOUT_STEPS + 1) + k];
                if (isfinite(v) && v < lo) lo = v;
                if (isfinite(v) && v > hi) hi = v;
            }
        if (!(hi > lo)) lo -= 1, hi += 1;
        maul_Chart c;
        maul_ChartBegin(&c, out, "learned-curves", "root speed (units/s) and the first latent values over the steps", 0,
                        MAUL_ROLLOUT_STEPS, lo, hi, "step", "value");
        for (uint32_t k = 0; k <= latent; ++k)
            maul_ChartLine(&c, steps, values + (size_t)k * (MAUL_ROLLOUT_STEPS + 1), (size_t)stepsDone,
                           maul_colours[k % MAUL_REPORT_COLOURS], "curve");
        maul_ChartEnd(&c);
    }
    if (failed != NULL) {
        fprintf(out, "<p>The rollout stopped: ");
        maul_EscapedZ(out, failed);
        fprintf(out, ".</p>\n");
    }
    free(p.memory);
    free(scratch);
    free(values);
    free(steps);
    free(positions);
    free(events);
    free(tracks);
    free(state);
    free(query);
}

/* -- Easings against MPFR --------------------------------------------------------------- */

/* Penner's curves in mode in, in MPFR at 256 bits, as easing.h defines them. */
static void maul_MpfrEasing(mtwnEasingKind kind, double p, mpfr_t out) {
    mpfr_t x, t;
    mpfr_inits2(256, x, t, (mpfr_ptr)0);
    mpfr_set_d(x, p, MPFR_RNDN);
    if (kind == mtwn_easingSine) { /* 1 - cos(p pi / 2) */
        mpfr_const_pi(t, MPFR_RNDN);
        mpfr_mul(t, t, x, MPFR_RNDN);
        mpfr_div_ui(t, t, 2, MPFR_RNDN);
        mpfr_cos(t, t, MPFR_RNDN);
        mpfr_ui_sub(out, 1, t, MPFR_RNDN);
    } else if (kind == mtwn_easingExpo) { /* (2^(10 (p - 1)) - 2^-10) / (1 - 2^-10) */
        mpfr_sub_ui(t, x, 1, MPFR_RNDN);
        mpfr_mul_ui(t, t, 10, MPFR_RNDN);
        mpfr_ui_pow(t, 2, t, MPFR_RNDN);
        mpfr_set_d(x, 0x1p-10, MPFR_RNDN);
        mpfr_sub(t, t, x, MPFR_RNDN);
        mpfr_ui_sub(x, 1, x, MPFR_RNDN);
        mpfr_div(out, t, x, MPFR_RNDN);
    } else { /* circ: 1 - sqrt(1 - p^2) */
        mpfr_sqr(t, x, MPFR_RNDN);
        mpfr_ui_sub(t, 1, t, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_ui_sub(out, 1, t, MPFR_RNDN);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);
}

#define MAUL_EASING_POINTS 401

static void maul_ReportEasing(FILE* out, mtwnEasingKind kind, const char* name) {
    mtwnEasing e;
    if (mtwnMakePennerEasing(kind, mtwn_easeIn, &e) != mtwn_success) return;
    double xs[MAUL_EASING_POINTS], ys[MAUL_EASING_POINTS], errs[MAUL_EASING_POINTS];
    double worst = 0;
    mpfr_t ref, diff;
    mpfr_inits2(256, ref, diff, (mpfr_ptr)0);
    for (int i = 0; i < MAUL_EASING_POINTS; ++i) {
        double p = (double)i / (MAUL_EASING_POINTS - 1);
        double got = 0;
        xs[i] = p;
        if (mtwnSampleEasing(&e, p, false, &got) != mtwn_success) got = NAN;
        ys[i] = got;
        maul_MpfrEasing(kind, p, ref);
        mpfr_set_d(diff, got, MPFR_RNDN);
        mpfr_sub(diff, diff, ref, MPFR_RNDN);
        errs[i] = fabs(mpfr_get_d(diff, MPFR_RNDN)) * 0x1p53;
        if (errs[i] > worst) worst = errs[i];
    }
    mpfr_clears(ref, diff, (mpfr_ptr)0);
    char title[128];
    snprintf(title, sizeof title, "%s in", name);
    maul_Chart c;
    maul_ChartBegin(&c, out, "easing", title, 0, 1, -0.05, 1.05, "progress", "eased");
    maul_ChartLine(&c, xs, ys, MAUL_EASING_POINTS, maul_colours[0], "curve");
    maul_ChartEnd(&c);
    snprintf(title, sizeof title, "%s in: error against MPFR (worst %.3f x 2^-53)", name, worst);
    maul_ChartBegin(&c, out, "easing-error", title, 0, 1, 0, worst > 0 ? worst * 1.15 : 1, "progress",
                    "error x 2^-53");
    maul_ChartLine(&c, xs, errs, MAUL_EASING_POINTS, maul_colours[1], "curve");
    maul_ChartEnd(&c);
}

/* -- The page ------------------------------------------------------------------------------ */

static const maniSkeleton* maul_FindSkeleton(const maul_ReportFile* files, int count, uint64_t identity) {
    for (int i = 0; i < count; ++i)
        if (files[i].kind == maul_reportSkeleton && maniSkeleton_GetIdentity(&files[i].skeleton) == identity)
            return &files[i].skeleton;
    return NULL;
}

int maul_Report(FILE* out, int argc, char** argv) {
    const char* page = NULL;
    maul_ReportFile files[MAUL_REPORT_MAX_FILES];
    int count = 0, refused = 0;
    maniCompressOptions defaults = maniDefaultCompressOptions();
    double precision = defaults.precision, shell = defaults.shellDistance;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            page = argv[++i];
        } else if ((strcmp(argv[i], "--precision") == 0 || strcmp(argv[i], "--shell") == 0) && i + 1 < argc) {
            char* end = NULL;
            double v = strtod(argv[i + 1], &end);
            if (end == argv[i + 1] || *end != 0 || !(v > 0) || !isfinite(v)) {
                fprintf(stderr, "maul report: %s needs a finite number above 0\n", argv[i]);
                for (int k = 0; k < count; ++k) free(files[k].bytes);
                return 2;
            }
            if (argv[i][2] == 'p')
                precision = v;
            else
                shell = v;
            i++;
        } else if (argv[i][0] == '-' || count == MAUL_REPORT_MAX_FILES) {
            fprintf(stderr, "usage: maul report FILE... --out PAGE.html [--precision P] [--shell D] (at most %d files)\n",
                    MAUL_REPORT_MAX_FILES);
            for (int k = 0; k < count; ++k) free(files[k].bytes);
            return 2;
        } else {
            files[count].path = argv[i];
            files[count].bytes = maul_ReadAllAligned(argv[i], &files[count].size);
            if (files[count].bytes == NULL) {
                fprintf(stderr, "maul report: cannot read %s\n", argv[i]);
                for (int k = 0; k < count; ++k) free(files[k].bytes);
                return 2;
            }
            if (!maul_ReportOpen(&files[count])) refused++;
            count++;
        }
    }
    if (page == NULL) {
        fprintf(stderr, "usage: maul report FILE... --out PAGE.html [--precision P] [--shell D]\n");
        for (int k = 0; k < count; ++k) free(files[k].bytes);
        return 2;
    }
    FILE* html = fopen(page, "w");
    if (html == NULL) {
        fprintf(stderr, "maul report: cannot write %s\n", page);
        for (int k = 0; k < count; ++k) free(files[k].bytes);
        return 2;
    }
    fprintf(html,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Maul report</title>\n<style>\n"
            "body{font-family:sans-serif;margin:2em;color:#222}h2{border-bottom:1px solid #ccc;margin-top:2em}\n"
            "svg{display:block;margin:1em 0;background:#fcfcfc;border:1px solid #eee}\n"
            ".title{font-size:13px;font-weight:bold}.tick{font-size:10px;fill:#555}.label{font-size:11px;fill:#333}\n"
            ".legend{font-size:10px}.frame{fill:none;stroke:#bbb}.curve{fill:none;stroke-width:1.5}\n"
            ".limit{fill:none;stroke-width:1;stroke-dasharray:4 3}.bones line{stroke-width:1.5}.bones circle{fill:none}\n"
            ".edge{stroke:#999}.node rect{fill:#eef3fb;stroke:#5a7fb5}.node text{font-size:11px}\n"
            "</style></head><body>\n<h1>Maul report</h1>\n<p>%d files. Every picture is inline SVG; the page needs no "
            "network.</p>\n",
            count);
    for (int i = 0; i < count; ++i) {
        const maul_ReportFile* f = &files[i];
        fprintf(html, "<h2>");
        maul_EscapedZ(html, f->path);
        fprintf(html, "</h2>\n<p>%s</p>\n", f->fileKind ? maul_FileKindName(f->fileKind) : "not a Maul file");
        if (f->kind == maul_reportSkeleton) {
            maul_ReportSkeleton(html, f);
        } else if (f->kind == maul_reportClip) {
            const maniSkeleton* s = maul_FindSkeleton(files, count, maniClip_GetSkeletonIdentity(&f->clip));
            fprintf(html, "<p>%s, %.3f s at %.3g Hz, %u samples.</p>\n",
                    maniClip_IsCompressed(&f->clip) ? "compressed" : "full precision",
                    (double)maniClip_GetDuration(&f->clip), (double)maniClip_GetSampleRate(&f->clip),
                    maniClip_GetSampleCount(&f->clip));
            if (s == NULL) {
                fprintf(html, "<p>Its skeleton (%016" PRIx64 ") is not among the files: give it to draw the clip.</p>\n",
                        maniClip_GetSkeletonIdentity(&f->clip));
                continue;
            }
            maul_ReportClip(html, f, s);
            if (maniClip_IsCompressed(&f->clip)) {
                for (int k = 0; k < count; ++k) {
                    const maul_ReportFile* g = &files[k];
                    if (g->kind == maul_reportClip && !maniClip_IsCompressed(&g->clip) &&
                        maniClip_GetSkeletonIdentity(&g->clip) == maniClip_GetSkeletonIdentity(&f->clip) &&
                        maniClip_GetSampleCount(&g->clip) == maniClip_GetSampleCount(&f->clip) &&
                        maniClip_GetDuration(&g->clip) == maniClip_GetDuration(&f->clip)) {
                        fprintf(html, "<p>Against ");
                        maul_EscapedZ(html, g->path);
                        fprintf(html, ":</p>\n");
                        maul_ReportCompression(html, g, f, s, precision, shell);
                        break;
                    }
                }
            }
        } else if (f->kind == maul_reportGraph) {
            maul_ReportGraph(html, f);
        } else if (f->kind == maul_reportLearned) {
            const maniLearnedModel* m = &f->learned;
            fprintf(html,
                    "<p>%u features, %u latent values, %u Projectors, %u float tracks, %u events, %s weights, %.4g steps a "
                    "second; database %016" PRIx64 ".</p>\n",
                    m->featureCount, m->latentCount, m->projectorCount, m->floatTrackCount, m->eventCount,
                    m->weightFormat == (uint32_t)maniLearnedWeights16 ? "16-bit" : "binary32", (double)m->stepRate,
                    maniLearnedModel_GetDatabaseIdentity(m));
            const maniSkeleton* s = maul_FindSkeleton(files, count, maniLearnedModel_GetSkeletonIdentity(m));
            if (s == NULL) {
                fprintf(html, "<p>Its skeleton (%016" PRIx64 ") is not among the files: give it to draw the model.</p>\n",
                        maniLearnedModel_GetSkeletonIdentity(m));
                continue;
            }
            maul_ReportLearned(html, f, s);
        }
    }
    fprintf(html, "<h2>Easings against MPFR</h2>\n");
    maul_ReportEasing(html, mtwn_easingSine, "sine");
    maul_ReportEasing(html, mtwn_easingExpo, "expo");
    maul_ReportEasing(html, mtwn_easingCirc, "circ");
    /* Counts what rendered into the title, so a headless browser can check it. */
    fprintf(html,
            "<script>window.addEventListener('error',function(){document.title='script error';});"
            "window.addEventListener('load',function(){var n=document.querySelectorAll('svg').length;"
            "var p=document.querySelectorAll('svg polyline, svg line').length;"
            "document.title='rendered '+n+' svg '+p+' lines';});</script>\n</body></html>\n");
    int ok = fclose(html) == 0;
    for (int k = 0; k < count; ++k) free(files[k].bytes);
    if (!ok) return 2;
    fprintf(out, "maul report: %d files into %s%s\n", count, page, refused ? " (some refused)" : "");
    return refused ? 1 : 0;
}
