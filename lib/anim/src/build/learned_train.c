/* learnedtrain.h: the trainer's def and source checks, its training data,
 * networks, stages, checkpoints and the model built from it
 * (docs/learned-training.md). Every network value is binary32, each
 * operation rounded once in the order written (the build keeps
 * -ffp-contract=off); a batch's chunks each sum their own gradients and the
 * chunks are summed in order, so no bit depends on the threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/anim/src/base/file_open.h"
#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/build/learned_train_internal.h"
#include "lib/anim/src/learned/learned_format.h"
#include "lib/anim/src/simd/simd.h"
#include "lib/core/container.h"
#include "lib/core/detmath.h"
#include "lib/core/hash.h"
#include "lib/core/utf8.h"
#include "maul/anim/pose.h"
#include "maul/anim/rootmotion.h"

/* -- Memory and the host's code ------------------------------------------------ */

static void* mani_TrainDefaultAllocate(void* user, size_t size, size_t alignment) {
    (void)user;
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    if (rounded < size) return NULL;
    return aligned_alloc(alignment, rounded);
}

static void mani_TrainDefaultRelease(void* user, void* memory, size_t size) {
    (void)user;
    (void)size;
    free(memory);
}

static void* mani_TrainAlloc(maniLearnedTrainer* t, size_t size, size_t alignment) {
    if (size == 0) return NULL;
    t->busy++;
    void* p = t->allocator.allocate(t->allocator.user, size, alignment);
    t->busy--;
    if (p != NULL && ((uintptr_t)p % alignment) != 0) {
        t->busy++;
        t->allocator.release(t->allocator.user, p, size);
        t->busy--;
        return NULL;
    }
    return p;
}

static void mani_TrainFree(maniLearnedTrainer* t, void* memory, size_t size) {
    if (memory == NULL) return;
    t->busy++;
    t->allocator.release(t->allocator.user, memory, size);
    t->busy--;
}

/* The entry of a call that changes the trainer: busy (host code running, or
 * destroying), or a build from it running when `building` refuses. */
static maniResult mani_TrainEnter(const maniLearnedTrainer* ct, int refuseBuilding) {
    maniLearnedTrainer* t = (maniLearnedTrainer*)ct;
    if (t->busy || t->destroying || (refuseBuilding && t->building)) {
        t->misuse++;
        return mani_errorBusy;
    }
    return mani_success;
}

typedef struct mani_TrainTask {
    maniLearnedTrainer* trainer;
    void (*chunks)(maniLearnedTrainer* t, uint32_t first, uint32_t end);
    uint32_t count; /* the chunks */
    uint32_t tasks; /* the tasks they are split into, evenly and in order */
} mani_TrainTask;

static void mani_TrainRunChunk(void* data, uint32_t index) {
    mani_TrainTask* task = (mani_TrainTask*)data;
    const uint32_t first = (uint32_t)((uint64_t)task->count * index / task->tasks);
    const uint32_t end = (uint32_t)((uint64_t)task->count * (index + 1u) / task->tasks);
    if (first < end) task->chunks(task->trainer, first, end);
}

/* The tasks a count of items is handed to the hooks in: a task each, or
 * at most the def's maxTasks. */
static uint32_t mani_TrainTaskCount(const maniLearnedTrainer* t, uint32_t count) {
    return t->tasks.maxTasks == 0 || t->tasks.maxTasks > count ? count : t->tasks.maxTasks;
}

/* Runs chunks(t, c0, c1) over every chunk on the task hooks when the def
 * gave them (ranges of chunks, a task each, or at most maxTasks); without,
 * chunks(t, 0, count) once on the calling thread: the chunks' rows through
 * each network together, each chunk's gradients and loss its own as on the
 * hooks (the same bits). */
static void mani_TrainRunChunks(maniLearnedTrainer* t, void (*chunks)(maniLearnedTrainer*, uint32_t, uint32_t),
                                uint32_t count) {
    if (t->tasks.begin == NULL) {
        t->busy++;
        chunks(t, 0, count);
        t->busy--;
        return;
    }
    mani_TrainTask task = {t, chunks, count, mani_TrainTaskCount(t, count)};
    t->busy++;
    void* handle = t->tasks.begin(t->tasks.user, mani_TrainRunChunk, &task, task.tasks);
    t->tasks.wait(t->tasks.user, handle);
    t->busy--;
}

/* -- Networks ------------------------------------------------------------------------ */

/* Lays out a network of `hidden` hidden layers of `width` from in to out. */
static void mani_TrainLayout(mani_TrainNet* n, uint32_t in, uint32_t width, uint32_t hidden, uint32_t out, int elu,
                             size_t* first) {
    memset(n, 0, sizeof *n);
    n->layers = hidden + 1u;
    n->elu = elu ? 1u : 0u;
    size_t at = 0, acts = in;
    for (uint32_t k = 0; k < n->layers; ++k) {
        n->in[k] = k == 0 ? in : width;
        n->out[k] = k + 1 == n->layers ? out : width;
        n->weights[k] = at;
        at += (size_t)n->in[k] * n->out[k];
        n->biases[k] = at;
        at += n->out[k];
        acts += n->out[k];
    }
    n->count = at;
    n->first = *first;
    n->activations = acts;
    *first += at;
}

/* The weights of a network of these shapes (checked against the limits). */
static uint64_t mani_TrainWeights(uint64_t in, uint64_t width, uint64_t hidden, uint64_t out) {
    return in * width + (hidden - 1u) * width * width + width * out;
}

/* Forward: acts holds the network's input a (normalized) and then each
 * layer's output after its activation. Returns the last layer's outputs.
 * wt, when not NULL, holds the network's weights transposed (layer k's at
 * n->weights[k], in x n->out[k] row-major, mani_TrainTranspose): each output
 * is then summed from its bias over the inputs in order as below, every
 * output side by side (maniSimd_TrainMatTVec), the same bits. */
static float* mani_TrainForward(const mani_TrainNet* n, const float* params, const float* wt, float* acts) {
    const float* p = params + n->first;
    float* x = acts;
    for (uint32_t k = 0; k < n->layers; ++k) {
        const uint32_t li = n->in[k], lo = n->out[k];
        const float* w = p + n->weights[k];
        const float* b = p + n->biases[k];
        float* y = x + li;
        uint32_t i = 0;
        if (wt != NULL) {
            for (i = 0; i < lo; ++i) y[i] = b[i];
            maniSimd_TrainMatTVec(y, wt + n->weights[k], x, li, lo, 0);
            i = lo;
        }
        /* Eight outputs side by side: independent sums, each from its bias
         * over the inputs in order, so the same bits as one at a time. */
        for (; i + 8u <= lo; i += 8u) {
            const float* row = w + (size_t)i * li;
            float s8[8];
            for (uint32_t q = 0; q < 8u; ++q) s8[q] = b[i + q];
            for (uint32_t j = 0; j < li; ++j) {
                const float xj = x[j];
                for (uint32_t q = 0; q < 8u; ++q) {
                    const float m = row[(size_t)q * li + j] * xj;
                    s8[q] = s8[q] + m;
                }
            }
            for (uint32_t q = 0; q < 8u; ++q) y[i + q] = s8[q];
        }
        for (; i < lo; ++i) {
            const float* row = w + (size_t)i * li;
            float s = b[i];
            for (uint32_t j = 0; j < li; ++j) {
                const float m = row[j] * x[j];
                s = s + m;
            }
            y[i] = s;
        }
        if (k + 1 < n->layers)
            for (i = 0; i < lo; ++i) {
                float s = y[i];
                if (n->elu)
                    s = s > 0.0f ? s : mcore_expm1f(s);
                else
                    s = s > 0.0f ? s : 0.0f;
                y[i] = s;
            }
        x = y;
    }
    return x;
}

/* Writes the network's weights transposed into wt (at the network's own
 * offsets: layer k's in x out block at n->weights[k]); biases untouched. */
static void mani_TrainTransposeNet(const mani_TrainNet* n, const float* params, float* wt) {
    const float* p = params + n->first;
    for (uint32_t k = 0; k < n->layers; ++k) {
        const uint32_t li = n->in[k], lo = n->out[k];
        const float* w = p + n->weights[k];
        float* o = wt + n->weights[k];
        /* In tiles of 16 x 16 (a copy: any order gives the same). */
        for (uint32_t i0 = 0; i0 < lo; i0 += 16u)
            for (uint32_t j0 = 0; j0 < li; j0 += 16u) {
                const uint32_t i1 = i0 + 16u < lo ? i0 + 16u : lo, j1 = j0 + 16u < li ? j0 + 16u : li;
                for (uint32_t i = i0; i < i1; ++i)
                    for (uint32_t j = j0; j < j1; ++j) o[(size_t)j * lo + i] = w[(size_t)i * li + j];
            }
    }
}

/* The model's evaluation of a network: a = (in - offset) / scale, then the
 * layers, then out = last * scale + offset. */
static float* mani_TrainRun(const mani_TrainNet* n, const float* params, const float* wt, const float* in, float* acts,
                            float* out) {
    for (uint32_t j = 0; j < n->in[0]; ++j) {
        const float d = in[j] - n->inOffsets[j];
        acts[j] = d / n->inScales[j];
    }
    const float* last = mani_TrainForward(n, params, wt, acts);
    const uint32_t o = n->out[n->layers - 1];
    for (uint32_t i = 0; i < o; ++i) {
        const float m = last[i] * n->outScales[i];
        out[i] = m + n->outOffsets[i];
    }
    return out;
}

static uint32_t mani_TrainWidest(const mani_TrainNet* n) {
    uint32_t w = n->in[0];
    for (uint32_t k = 0; k < n->layers; ++k)
        if (n->out[k] > w) w = n->out[k];
    return w;
}

/* -- Rows: a chunk's samples through a network together ------------------------------- */

/* The forward of count rows: row q's acts at acts + q as, laid out as
 * mani_TrainForward's, its input written. wt: the network's transposed
 * weights. Each output of each row is the same sum as mani_TrainForward's. */
static void mani_TrainForwardRows(const mani_TrainNet* n, const float* params, const float* wt, float* acts, size_t as,
                                  uint32_t count) {
    const float* p = params + n->first;
    size_t at = 0;
    for (uint32_t k = 0; k < n->layers; ++k) {
        const uint32_t li = n->in[k], lo = n->out[k];
        const float* b = p + n->biases[k];
        for (uint32_t q = 0; q < count; ++q) {
            float* y = acts + (size_t)q * as + at + li;
            for (uint32_t i = 0; i < lo; ++i) y[i] = b[i];
        }
        maniSimd_TrainMatTMat(acts + at + li, as, wt + n->weights[k], acts + at, as, count, li, lo, 0);
        if (k + 1 < n->layers)
            for (uint32_t q = 0; q < count; ++q) {
                float* y = acts + (size_t)q * as + at + li;
                for (uint32_t i = 0; i < lo; ++i) {
                    float v = y[i];
                    if (n->elu)
                        v = v > 0.0f ? v : mcore_expm1f(v);
                    else
                        v = v > 0.0f ? v : 0.0f;
                    y[i] = v;
                }
            }
        at += li;
    }
}

/* The offset of the network's last outputs in a row's acts. */
static size_t mani_TrainLastAt(const mani_TrainNet* n) { return n->activations - n->out[n->layers - 1]; }

/* The gradients of count rows back through the network (no parameter's
 * gradient: mani_TrainGradRows). dacts: row q's at dacts + q ds, laid out
 * as its acts (the input's gradient, then each layer's outputs'); the
 * caller writes the last outputs' gradient at mani_TrainLastAt. Every
 * layer's input gradient, and with needIn the network's input's: the
 * transposed product, each dx[j] from 0 over the outputs in order (an
 * output of gradient 0, either sign, left out), then through the
 * activation of the layer below (ELU: times 1 above 0, else x + 1 of its
 * output x; rectifier: 0 where its output is not above 0). */
static void mani_TrainBackwardRows(const mani_TrainNet* n, const float* params, const float* acts, size_t as,
                                   float* dacts, size_t ds, uint32_t count, int needIn) {
    const float* p = params + n->first;
    size_t inAt[MANI_MAX_LEARNED_LAYERS];
    size_t at = 0;
    for (uint32_t k = 0; k < n->layers; ++k) {
        inAt[k] = at;
        at += n->in[k];
    }
    for (uint32_t kk = n->layers; kk-- > 0;) {
        if (kk == 0 && !needIn) break;
        const uint32_t li = n->in[kk], lo = n->out[kk];
        const float* w = p + n->weights[kk];
        for (uint32_t q = 0; q < count; ++q) {
            float* dx = dacts + (size_t)q * ds + inAt[kk];
            for (uint32_t j = 0; j < li; ++j) dx[j] = 0.0f;
        }
        maniSimd_TrainMatTMat(dacts + inAt[kk], ds, w, dacts + inAt[kk] + li, ds, count, lo, li, 1);
        if (kk > 0)
            for (uint32_t q = 0; q < count; ++q) {
                const float* x = acts + (size_t)q * as + inAt[kk];
                float* dx = dacts + (size_t)q * ds + inAt[kk];
                for (uint32_t j = 0; j < li; ++j) {
                    if (n->elu) {
                        const float dv = x[j] > 0.0f ? 1.0f : x[j] + 1.0f;
                        dx[j] = dx[j] * dv;
                    } else if (!(x[j] > 0.0f)) {
                        dx[j] = 0.0f;
                    }
                }
            }
    }
}

/* Adds count rows' parameter gradients to grads (the network's, at its
 * own offsets), row after row for every element: a bias's gradient plus
 * each row's output gradient d; a weight's plus d x of each row whose d is
 * not 0 (either sign). init: every gradient starts from +0 (the buffer's
 * old values not read: the same bits as zeroing it first). */
static void mani_TrainGradRows(const mani_TrainNet* n, const float* acts, size_t as, const float* dacts, size_t ds,
                               uint32_t count, float* grads, int init) {
    size_t at = 0;
    for (uint32_t k = 0; k < n->layers; ++k) {
        const uint32_t li = n->in[k], lo = n->out[k];
        float* gb = grads + n->biases[k];
        if (init)
            for (uint32_t i = 0; i < lo; ++i) gb[i] = 0.0f;
        for (uint32_t q = 0; q < count; ++q) {
            const float* dy = dacts + (size_t)q * ds + at + li;
            for (uint32_t i = 0; i < lo; ++i) gb[i] = gb[i] + dy[i];
        }
        maniSimd_TrainOuterAcc(grads + n->weights[k], dacts + at + li, ds, acts + at, as, count, lo, li, init);
        at += li;
    }
}

/* -- Statistics (binary64 sums in frame order, rounded once) --------------------------- */

static float mani_TrainStdOr1(double sum, double sum2, double count) {
    const double mean = sum / count;
    double var = sum2 / count - mean * mean;
    if (!(var > 0.0)) return 1.0f;
    const float s = (float)sqrt(var);
    return s > 1e-6f ? s : 1.0f;
}

/* Per column mean and std of rows x cols values (stride columns). */
static void mani_TrainColumnStats(const float* v, uint32_t rows, uint32_t cols, uint32_t stride, float* mean,
                                  float* std) {
    for (uint32_t c = 0; c < cols; ++c) {
        double s = 0.0, s2 = 0.0;
        for (uint32_t r = 0; r < rows; ++r) {
            const double a = v[(size_t)r * stride + c];
            s += a;
            s2 += a * a;
        }
        if (mean != NULL) mean[c] = (float)(s / rows);
        if (std != NULL) std[c] = mani_TrainStdOr1(s, s2, rows);
    }
}

/* One std over every value of the columns. */
static float mani_TrainAllStd(const float* v, uint32_t rows, uint32_t cols, uint32_t stride) {
    double s = 0.0, s2 = 0.0;
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) {
            const double a = v[(size_t)r * stride + c];
            s += a;
            s2 += a * a;
        }
    return mani_TrainStdOr1(s, s2, (double)rows * cols);
}

/* -- Creating -------------------------------------------------------------------------- */

/* An entry of a database whose entries were read once already. */
static void mani_TrainEntry(const maniMotionDatabase* db, uint32_t e, maniMatchEntry* entry) {
    if (maniMotionDatabase_GetEntry(db, e, entry) != mani_success) memset(entry, 0, sizeof *entry);
}

static maniBuildResult mani_TrainResult(maniResult r, uint32_t reason, uint64_t item, uint64_t other) {
    maniBuildResult res = {r, reason, item, other};
    return res;
}

static maniBuildResult mani_TrainCheckNames(const maniLearnedNameSource* names, uint32_t count, uint32_t list) {
    for (uint32_t i = 0; i < count; ++i) {
        const maniLearnedNameSource* n = &names[i];
        if (n->length > MANI_MAX_NAME_BYTES) return mani_TrainResult(mani_errorLimit, list | maniBuildReasonName, i, 0);
        if (n->name == NULL || n->length == 0 || mcore_Utf8Check((const uint8_t*)n->name, n->length) != n->length)
            return mani_TrainResult(mani_errorInvalid, list | maniBuildReasonName, i, 0);
        for (uint32_t k = 0; k < i; ++k)
            if (names[k].length == n->length && memcmp(names[k].name, n->name, n->length) == 0)
                return mani_TrainResult(mani_errorInvalid, list | maniBuildReasonDuplicateName, i, k);
    }
    return mani_TrainResult(mani_success, maniBuildReasonNone, 0, 0);
}

static int mani_TrainRateBad(float v) { return !isfinite(v) || v < 0.0f; }

/* The options' checks, bounds first (mani_errorLimit), then the refusals. */
static maniBuildResult mani_TrainCheckOptions(const maniLearnedTrainerOptions* o) {
    const uint32_t widths[4] = {o->compressorWidth, o->decompressorWidth, o->stepperWidth, o->projectorWidth};
    const uint32_t layers[4] = {o->compressorLayers, o->decompressorLayers, o->stepperLayers, o->projectorLayers};
    if (o->latentCount > MANI_MAX_LEARNED_LATENT) return mani_TrainResult(mani_errorLimit, maniBuildReasonOption, 0, 0);
    for (uint32_t k = 0; k < 4; ++k) {
        if (widths[k] > MANI_MAX_LEARNED_WIDTH) return mani_TrainResult(mani_errorLimit, maniBuildReasonOption, 1 + 2 * k, 0);
        if (layers[k] >= MANI_MAX_LEARNED_LAYERS)
            return mani_TrainResult(mani_errorLimit, maniBuildReasonOption, 2 + 2 * k, 0);
    }
    if (o->batchSize > MANI_MAX_LEARNED_BATCH) return mani_TrainResult(mani_errorLimit, maniBuildReasonOption, 9, 0);
    if (o->trainingWindow > MANI_MAX_LEARNED_WINDOW) return mani_TrainResult(mani_errorLimit, maniBuildReasonOption, 10, 0);
    if (o->stepperWindow > MANI_MAX_LEARNED_WINDOW) return mani_TrainResult(mani_errorLimit, maniBuildReasonOption, 11, 0);
    if (o->latentCount == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 0, 0);
    for (uint32_t k = 0; k < 4; ++k) {
        if (widths[k] == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 1 + 2 * k, 0);
        if (layers[k] == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 2 + 2 * k, 0);
    }
    if (o->batchSize == 0 || o->batchSize % MANI_LEARNED_CHUNK_SAMPLES != 0)
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 9, 0);
    if (o->trainingWindow < 2) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 10, 0);
    if (o->stepperWindow < 2) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 11, 0);
    if (o->decompressorIterations == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 12, 0);
    if (o->stepperIterations == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 13, 0);
    if (o->projectorIterations == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 14, 0);
    if (mani_TrainRateBad(o->learningRate)) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 15, 0);
    if (mani_TrainRateBad(o->weightDecay)) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 16, 0);
    if (mani_TrainRateBad(o->beta1) || !(o->beta1 < 1.0f))
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 17, 0);
    if (mani_TrainRateBad(o->beta2) || !(o->beta2 < 1.0f))
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 18, 0);
    if (mani_TrainRateBad(o->epsilon)) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 19, 0);
    if (mani_TrainRateBad(o->decayRate)) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 20, 0);
    if (o->decayInterval == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 21, 0);
    if (o->reserved != 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 22, 0);
    return mani_TrainResult(mani_success, maniBuildReasonNone, 0, 0);
}

/* The signature of a source and options: what a checkpoint is restored
 * against. */
static uint64_t mani_TrainSignature(const maniLearnedTrainerSource* s) {
    const maniLearnedTrainerOptions* o = &s->options;
    /* "LEARTRN2": the losses of the character-space terms (a checkpoint of
     * the trainer before them is another run's). */
    uint64_t h = mcore_Hash64(UINT64_C(0x4C45415254524E32), NULL, 0);
    uint8_t buf[8];
#define MANI_SIG_U64(v) (mcore_WriteU64(buf, (uint64_t)(v)), h = mcore_Hash64(h, buf, 8))
#define MANI_SIG_F32(v) (mcore_WriteF32(buf, (v)), h = mcore_Hash64(h, buf, 4))
    MANI_SIG_U64(maniSkeleton_GetIdentity(s->skeleton));
    MANI_SIG_U64(maniMotionDatabase_GetIdentity(s->database));
    for (uint32_t i = 0; i < s->clipCount; ++i) MANI_SIG_U64(maniClip_GetIdentity(&s->clips[i]));
    MANI_SIG_U64(s->projectorCount);
    for (uint32_t p = 0; p < s->projectorCount; ++p) {
        MANI_SIG_U64(s->projectors[p].requiredTags);
        MANI_SIG_U64(s->projectors[p].excludedTags);
    }
    MANI_SIG_U64(s->floatTrackCount);
    for (uint32_t i = 0; i < s->floatTrackCount; ++i) {
        MANI_SIG_U64(s->floatTracks[i].length);
        h = mcore_Hash64(h, s->floatTracks[i].name, s->floatTracks[i].length);
    }
    MANI_SIG_U64(s->eventCount);
    for (uint32_t i = 0; i < s->eventCount; ++i) {
        MANI_SIG_U64(s->events[i].length);
        h = mcore_Hash64(h, s->events[i].name, s->events[i].length);
    }
    MANI_SIG_U64(o->latentCount);
    MANI_SIG_U64(o->compressorWidth);
    MANI_SIG_U64(o->compressorLayers);
    MANI_SIG_U64(o->decompressorWidth);
    MANI_SIG_U64(o->decompressorLayers);
    MANI_SIG_U64(o->stepperWidth);
    MANI_SIG_U64(o->stepperLayers);
    MANI_SIG_U64(o->projectorWidth);
    MANI_SIG_U64(o->projectorLayers);
    MANI_SIG_U64(o->batchSize);
    MANI_SIG_U64(o->trainingWindow);
    MANI_SIG_U64(o->stepperWindow);
    MANI_SIG_U64(o->decompressorIterations);
    MANI_SIG_U64(o->stepperIterations);
    MANI_SIG_U64(o->projectorIterations);
    MANI_SIG_F32(o->learningRate);
    MANI_SIG_F32(o->weightDecay);
    MANI_SIG_F32(o->beta1);
    MANI_SIG_F32(o->beta2);
    MANI_SIG_F32(o->epsilon);
    MANI_SIG_F32(o->decayRate);
    MANI_SIG_U64(o->decayInterval);
    MANI_SIG_U64(o->seed);
#undef MANI_SIG_U64
#undef MANI_SIG_F32
    return h != 0 ? h : 1u;
}

/* The Compressor's inputs past the targets: per bone but bone 0 (whose
 * character space is the identity) its character-space position and first
 * two rotation columns (Holden's Qpos and Qtxy). */
#define MANI_TRAIN_CHARACTER_INPUTS 9u
static uint32_t mani_TrainCharacterInputs(uint32_t bones) {
    return bones > 0 ? MANI_TRAIN_CHARACTER_INPUTS * (bones - 1u) : 0u;
}

/* A frame's Compressor input before its normalization: the targets, then
 * the character-space values of mani_TrainCharacterInputs. */
static float mani_TrainCompressorInput(const maniLearnedTrainer* t, uint32_t frame, uint32_t j) {
    if (j < t->outputs) return t->y[(size_t)frame * t->outputs + j];
    const uint32_t k = j - t->outputs, b = 1u + k / MANI_TRAIN_CHARACTER_INPUTS;
    return t->q[((size_t)frame * t->bones + b) * MANI_TRAIN_XFM + k % MANI_TRAIN_CHARACTER_INPUTS];
}

/* A frame's targets: per bone translation and two rotation columns, the
 * scaled bones' scales, the root's velocity and angular velocity in its
 * space, the float tracks, the events' states. */
static int mani_TrainSampleFrame(maniLearnedTrainer* t, maniPose* pose, float* values, uint32_t valueCapacity,
                                 const maniClip* clip, float time, float* out, float* scales) {
    const maniLearnedTrainerSource* s = &t->source;
    if (maniClip_Sample(clip, s->skeleton, time, pose) != mani_success) return 0;
    for (uint32_t b = 0; b < t->bones; ++b) {
        const maniTransform x = maniPose_GetLocal(pose, b);
        float* o = out + 9u * (size_t)b;
        const float qx = x.rotation.x, qy = x.rotation.y, qz = x.rotation.z, qw = x.rotation.w;
        o[0] = x.translation.x;
        o[1] = x.translation.y;
        o[2] = x.translation.z;
        o[3] = 1.0f - 2.0f * (qy * qy + qz * qz);
        o[4] = 2.0f * (qx * qy + qw * qz);
        o[5] = 2.0f * (qx * qz - qw * qy);
        o[6] = 2.0f * (qx * qy - qw * qz);
        o[7] = 1.0f - 2.0f * (qx * qx + qz * qz);
        o[8] = 2.0f * (qy * qz + qw * qx);
        scales[3u * b] = x.scale.x;
        scales[3u * b + 1] = x.scale.y;
        scales[3u * b + 2] = x.scale.z;
    }
    /* Root motion over one frame, as velocities. */
    maniRootMove move;
    if (maniClip_GetRootMotion(clip, time, t->dt, &move) != mani_success) return 0;
    float* r = out + 9u * (size_t)t->bones + 3u * (size_t)t->scaled;
    r[0] = move.translation.x / t->dt;
    r[1] = move.translation.y / t->dt;
    r[2] = move.translation.z / t->dt;
    float qx = move.rotation.x, qy = move.rotation.y, qz = move.rotation.z, qw = move.rotation.w;
    if (qw < 0.0f) qx = -qx, qy = -qy, qz = -qz, qw = -qw;
    const float len = sqrtf(qx * qx + qy * qy + qz * qz);
    if (len > 0.0f) {
        const float angle = 2.0f * mcore_atan2f(len, qw);
        const float k = angle / len / t->dt;
        r[3] = qx * k, r[4] = qy * k, r[5] = qz * k;
    } else {
        r[3] = r[4] = r[5] = 0.0f;
    }
    float* tr = r + MANI_LEARNED_ROOT_OUTPUTS;
    if (t->tracks > 0) {
        uint32_t count = 0;
        const uint32_t have = maniClip_GetFloatTrackCount(clip);
        if (have > valueCapacity || maniClip_SampleFloats(clip, time, values, valueCapacity, &count) != mani_success)
            return 0;
        for (uint32_t i = 0; i < t->tracks; ++i) {
            const uint32_t k = maniClip_FindFloatTrack(clip, s->floatTracks[i].name, s->floatTracks[i].length);
            tr[i] = k < count ? values[k] : 0.0f;
        }
    }
    float* ev = tr + t->tracks;
    const float half = 0.5f * t->dt;
    const uint32_t eventCount = maniClip_GetEventCount(clip);
    for (uint32_t i = 0; i < t->events; ++i) {
        ev[i] = 0.0f;
        for (uint32_t k = 0; k < eventCount; ++k) {
            const maniClipEvent e = maniClip_GetEvent(clip, k);
            if (e.nameLength == s->events[i].length && memcmp(e.name, s->events[i].name, e.nameLength) == 0 &&
                fabsf(e.time - time) <= half) {
                ev[i] = 1.0f;
                break;
            }
        }
    }
    return 1;
}

/* Resets the networks to their seeded initial weights and the progress to
 * the start: PyTorch's nn.Linear initialization (weights and biases uniform
 * in +-1 / sqrt(inputs)), networks in order, each layer's weights row by row
 * then its biases. */
static void mani_TrainReset(maniLearnedTrainer* t) {
    mcore_RngSeed(&t->rng, t->options.seed);
    for (uint32_t n = 0; n < t->netCount; ++n) {
        const mani_TrainNet* net = &t->nets[n];
        float* p = t->params + net->first;
        for (uint32_t k = 0; k < net->layers; ++k) {
            const float bound = 1.0f / sqrtf((float)net->in[k]);
            const size_t w = (size_t)net->in[k] * net->out[k];
            for (size_t i = 0; i < w; ++i) p[net->weights[k] + i] = mcore_RngFloatRange(&t->rng, -bound, bound);
            for (uint32_t i = 0; i < net->out[k]; ++i) p[net->biases[k] + i] = mcore_RngFloatRange(&t->rng, -bound, bound);
        }
    }
    memset(t->z, 0, sizeof(float) * (size_t)t->frames * t->latent);
    t->stage = MANI_TRAIN_STAGE_DECOMPRESSOR;
    t->projector = 0;
    t->stageIteration = 0;
    t->learningRate = t->options.learningRate;
    t->beta1Power = 1.0f;
    t->beta2Power = 1.0f;
    t->statsReady = 0;
}

maniBuildResult maniCreateLearnedTrainer(const maniLearnedTrainerDef* def, const maniLearnedTrainerSource* source,
                                         maniLearnedTrainer** trainerOut) {
    if (def == NULL || source == NULL || trainerOut == NULL)
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    if (def->cookie != MANI_LEARNED_TRAINER_DEF_COOKIE || def->cookieEnd != MANI_LEARNED_TRAINER_DEF_COOKIE)
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    if (def->abiVersion != MANI_ABI_VERSION) return mani_TrainResult(mani_errorVersion, maniBuildReasonNone, 0, 0);
    maniAllocator a = def->allocator;
    if ((a.allocate == NULL) != (a.release == NULL)) return mani_TrainResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    if ((def->tasks.begin == NULL) != (def->tasks.wait == NULL))
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    const maniLearnedTrainerSource* s = source;
    const maniLearnedTrainerOptions* o = &s->options;
    if (s->skeleton == NULL || s->database == NULL) return mani_TrainResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    /* Bounds. */
    maniBuildResult r = mani_TrainCheckOptions(o);
    if (r.result == mani_errorLimit) return r;
    const maniMotionDatabase* db = s->database;
    if (db->opened == 0 || maniMotionDatabase_GetIdentity(db) == 0)
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
    if (db->rate > MANI_MAX_LEARNED_RATE) return mani_TrainResult(mani_errorLimit, maniBuildReasonTiming, 0, 0);
    if (s->projectorCount > MANI_MAX_LEARNED_PROJECTORS || s->floatTrackCount > MANI_MAX_LEARNED_FLOAT_TRACKS ||
        s->eventCount > MANI_MAX_LEARNED_EVENTS)
        return mani_TrainResult(mani_errorLimit, maniBuildReasonCount, 0, 0);
    if ((s->floatTrackCount > 0 && s->floatTracks == NULL) || (s->eventCount > 0 && s->events == NULL) ||
        (s->projectorCount > 0 && s->projectors == NULL) || (s->clipCount > 0 && s->clips == NULL))
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    for (uint32_t i = 0; i < s->floatTrackCount; ++i)
        if (s->floatTracks[i].length > MANI_MAX_NAME_BYTES)
            return mani_TrainResult(mani_errorLimit, maniBuildReasonFloatTrack | maniBuildReasonName, i, 0);
    for (uint32_t i = 0; i < s->eventCount; ++i)
        if (s->events[i].length > MANI_MAX_NAME_BYTES)
            return mani_TrainResult(mani_errorLimit, maniBuildReasonEvent | maniBuildReasonName, i, 0);
    const uint32_t bones = maniSkeleton_GetBoneCount(s->skeleton);
    const uint64_t f = db->featureCount, latent = o->latentCount, state = f + latent;
    {
        /* The networks' shapes against the limits (the scaled bones are not
         * known yet: the widest the Decompressor may be). */
        const uint64_t outMost = mani_LearnedDecompressorOutputs(bones, bones, s->floatTrackCount, s->eventCount);
        const uint64_t yIn = outMost + mani_TrainCharacterInputs(bones);
        if (state > MANI_MAX_LEARNED_WIDTH || yIn > MANI_MAX_LEARNED_WIDTH ||
            mani_TrainWeights(yIn, o->compressorWidth, o->compressorLayers, latent) > MANI_MAX_LEARNED_WEIGHTS ||
            mani_TrainWeights(state, o->decompressorWidth, o->decompressorLayers, outMost) > MANI_MAX_LEARNED_WEIGHTS ||
            mani_TrainWeights(state, o->stepperWidth, o->stepperLayers, state) > MANI_MAX_LEARNED_WEIGHTS ||
            mani_TrainWeights(f, o->projectorWidth, o->projectorLayers, state) > MANI_MAX_LEARNED_WEIGHTS)
            return mani_TrainResult(mani_errorLimit, maniBuildReasonOption, 1, 0);
    }
    /* Refusals. */
    if (r.result != mani_success) return r;
    if (db->rate <= 0.0f || !isfinite(db->rate)) return mani_TrainResult(mani_errorInvalid, maniBuildReasonTiming, 0, 0);
    if (bones == 0 || maniMotionDatabase_GetSkeletonIdentity(db) != maniSkeleton_GetIdentity(s->skeleton))
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
    if (s->clipCount != db->clipCount)
        return mani_TrainResult(mani_errorInvalid, maniBuildReasonClip, s->clipCount, db->clipCount);
    for (uint32_t i = 0; i < s->clipCount; ++i)
        if (maniClip_GetIdentity(&s->clips[i]) == 0 ||
            maniClip_GetIdentity(&s->clips[i]) != maniMotionDatabase_GetClipIdentity(db, i) ||
            maniClip_GetSkeletonIdentity(&s->clips[i]) != maniSkeleton_GetIdentity(s->skeleton))
            return mani_TrainResult(mani_errorInvalid, maniBuildReasonClip, i, 0);
    if (s->projectorCount == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonCount, 0, 0);
    for (uint32_t p = 0; p < s->projectorCount; ++p) {
        const maniLearnedTrainerProjector* pj = &s->projectors[p];
        if ((pj->requiredTags >> 32) != 0 || (pj->excludedTags >> 32) != 0 || (pj->requiredTags & pj->excludedTags) != 0)
            return mani_TrainResult(mani_errorInvalid, maniBuildReasonTags, p, 0);
    }
    r = mani_TrainCheckNames(s->floatTracks, s->floatTrackCount, maniBuildReasonFloatTrack);
    if (r.result != mani_success) return r;
    r = mani_TrainCheckNames(s->events, s->eventCount, maniBuildReasonEvent);
    if (r.result != mani_success) return r;
    /* Windows: some entry must hold each. */
    uint32_t longest = 0;
    for (uint32_t e = 0; e < db->entryCount; ++e) {
        maniMatchEntry entry;
        if (maniMotionDatabase_GetEntry(db, e, &entry) != mani_success)
            return mani_TrainResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
        if (entry.frameCount > longest) longest = entry.frameCount;
    }
    if (o->trainingWindow > longest) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 10, 0);
    if (o->stepperWindow > longest) return mani_TrainResult(mani_errorInvalid, maniBuildReasonOption, 11, 0);
    /* Each Projector's frames. */
    const uint32_t frames = db->frameCount;
    for (uint32_t p = 0; p < s->projectorCount; ++p) {
        uint32_t passing = 0;
        for (uint32_t e = 0; e < db->entryCount; ++e) {
            maniMatchEntry entry;
            mani_TrainEntry(db, e, &entry);
            const maniLearnedTrainerProjector* pj = &s->projectors[p];
            if ((entry.tags & pj->requiredTags) == pj->requiredTags && (entry.tags & pj->excludedTags) == 0)
                passing += entry.frameCount;
        }
        if (passing == 0) return mani_TrainResult(mani_errorInvalid, maniBuildReasonTags, p, 0);
    }

    /* The trainer's block. */
    if (a.allocate == NULL) {
        a.allocate = mani_TrainDefaultAllocate;
        a.release = mani_TrainDefaultRelease;
        a.user = NULL;
    }
    maniLearnedTrainer probe;
    memset(&probe, 0, sizeof probe);
    probe.allocator = a;
    probe.tasks = def->tasks;
    maniLearnedTrainer* t = (maniLearnedTrainer*)mani_TrainAlloc(&probe, sizeof(maniLearnedTrainer), 64);
    if (t == NULL) return mani_TrainResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    *t = probe;
    t->source = *s;
    t->options = *o;
    t->signature = mani_TrainSignature(s);
    t->frames = frames;
    t->features = (uint32_t)f;
    t->latent = o->latentCount;
    t->state = (uint32_t)state;
    t->bones = bones;
    t->tracks = s->floatTrackCount;
    t->events = s->eventCount;
    t->dt = 1.0f / db->rate;
    /* A first pass over the frames finds the scaled bones: those whose scale
     * is not the first frame's at every frame. */
    maniBuildResult result = mani_TrainResult(mani_errorCapacity, maniBuildReasonNone, 0, 0);
    const size_t poseSize = maniSkeleton_GetPoseSize(s->skeleton);
    uint32_t valueCapacity = 0;
    for (uint32_t i = 0; i < s->clipCount; ++i)
        if (maniClip_GetFloatTrackCount(&s->clips[i]) > valueCapacity) valueCapacity = maniClip_GetFloatTrackCount(&s->clips[i]);
    const size_t maxOut = (size_t)mani_LearnedDecompressorOutputs(bones, bones, t->tracks, t->events);
    const size_t tempSize = poseSize + 4u * ((size_t)valueCapacity + 1u) + 4u * maxOut + 4u * 6u * bones + 4u * bones +
                            4u * MANI_TRAIN_FK_FLOATS * (size_t)bones;
    uint8_t* temp = (uint8_t*)mani_TrainAlloc(t, (tempSize + 63u) & ~(size_t)63u, 64);
    if (temp == NULL) goto fail;
    {
        maniPose* pose = NULL;
        if (maniInitPose(s->skeleton, temp, poseSize, &pose) != mani_success) {
            result = mani_TrainResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
            goto failTemp;
        }
        float* values = (float*)(void*)(temp + ((poseSize + 15u) & ~(size_t)15u));
        float* outBuf = values + valueCapacity + 1u;
        float* firstScales = outBuf + maxOut;
        float* scales = firstScales + 3u * bones;
        uint32_t* isScaled = (uint32_t*)(void*)(scales + 3u * bones);
        float* fkTemp = (float*)(void*)(isScaled + bones);
        memset(isScaled, 0, 4u * bones);
        t->scaled = 0;
        for (uint32_t fr = 0; fr < frames; ++fr) {
            uint32_t e = 0;
            float time = 0;
            maniMatchEntry entry;
            if (maniMotionDatabase_GetFrame(db, fr, &e, &time) != mani_success ||
                maniMotionDatabase_GetEntry(db, e, &entry) != mani_success ||
                !mani_TrainSampleFrame(t, pose, values, valueCapacity, &s->clips[entry.clip], time, outBuf, fr == 0 ? firstScales : scales)) {
                result = mani_TrainResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
                goto failTemp;
            }
            if (fr > 0)
                for (uint32_t b = 0; b < bones; ++b)
                    if (memcmp(scales + 3u * b, firstScales + 3u * b, 12) != 0) isScaled[b] = 1;
        }
        for (uint32_t b = 0; b < bones; ++b) t->scaled += isScaled[b];
        t->outputs = (uint32_t)mani_LearnedDecompressorOutputs(bones, t->scaled, t->tracks, t->events);
        /* Networks. */
        size_t first = 0;
        t->netCount = 3u + s->projectorCount;
        mani_TrainLayout(&t->nets[0], t->outputs + mani_TrainCharacterInputs(bones), o->compressorWidth,
                         o->compressorLayers, t->latent, 1, &first);
        mani_TrainLayout(&t->nets[1], t->state, o->decompressorWidth, o->decompressorLayers, t->outputs, 0, &first);
        mani_TrainLayout(&t->nets[2], t->state, o->stepperWidth, o->stepperLayers, t->state, 0, &first);
        for (uint32_t p = 0; p < s->projectorCount; ++p)
            mani_TrainLayout(&t->nets[3 + p], t->features, o->projectorWidth, o->projectorLayers, t->state, 0, &first);
        t->paramCount = first;
        /* The data block. */
        size_t normFloats = 0;
        for (uint32_t n = 0; n < t->netCount; ++n)
            normFloats += 2u * (size_t)t->nets[n].in[0] + 2u * (size_t)t->nets[n].out[t->nets[n].layers - 1];
        uint32_t passingTotal = 0;
        for (uint32_t p = 0; p < s->projectorCount; ++p) {
            for (uint32_t e = 0; e < db->entryCount; ++e) {
                maniMatchEntry entry;
                mani_TrainEntry(db, e, &entry);
                const maniLearnedTrainerProjector* pj = &s->projectors[p];
                if ((entry.tags & pj->requiredTags) == pj->requiredTags && (entry.tags & pj->excludedTags) == 0)
                    passingTotal += entry.frameCount;
            }
        }
        const size_t onesCount = t->state > t->outputs ? t->state : t->outputs;
        const size_t floats = (size_t)frames * t->features + (size_t)frames * t->outputs + (size_t)frames * t->latent +
                              2u * (size_t)t->outputs + 3u * (size_t)bones + t->features + 2u * onesCount + normFloats +
                              t->paramCount + (size_t)frames * bones * MANI_TRAIN_XFM;
        const size_t words = (size_t)t->scaled + 2u * (size_t)frames + passingTotal + bones;
        const size_t dataSize = 4u * floats + 4u * words + 64u;
        t->data = (uint8_t*)mani_TrainAlloc(t, dataSize, 64);
        if (t->data == NULL) goto failTemp;
        t->dataSize = dataSize;
        memset(t->data, 0, dataSize);
        float* at = (float*)(void*)t->data;
        t->params = at, at += t->paramCount;
        t->x = at, at += (size_t)frames * t->features;
        t->y = at, at += (size_t)frames * t->outputs;
        t->z = at, at += (size_t)frames * t->latent;
        t->q = at, at += (size_t)frames * bones * MANI_TRAIN_XFM;
        t->yMean = at, at += t->outputs;
        t->yStd = at, at += t->outputs;
        t->boneScales = at, at += 3u * (size_t)bones;
        t->noiseStd = at, at += t->features;
        t->ones = at, at += onesCount;
        t->zeros = at, at += onesCount;
        t->norms = at, at += normFloats;
        uint32_t* w = (uint32_t*)(void*)at;
        t->scaledBones = w, w += t->scaled;
        t->windowStarts[0] = w, w += frames;
        t->windowStarts[1] = w, w += frames;
        t->passing = w, w += passingTotal;
        t->parents = w, w += bones;
        for (uint32_t b = 0; b < bones; ++b) t->parents[b] = maniSkeleton_GetParent(s->skeleton, b);
        for (size_t i = 0; i < onesCount; ++i) t->ones[i] = 1.0f;
        float* nv = t->norms;
        for (uint32_t n = 0; n < t->netCount; ++n) {
            mani_TrainNet* net = &t->nets[n];
            const uint32_t in = net->in[0], out = net->out[net->layers - 1];
            net->inOffsets = nv, nv += in;
            net->inScales = nv, nv += in;
            net->outOffsets = nv, nv += out;
            net->outScales = nv, nv += out;
            for (uint32_t j = 0; j < in; ++j) net->inScales[j] = 1.0f;
            for (uint32_t j = 0; j < out; ++j) net->outScales[j] = 1.0f;
        }
        uint32_t sb = 0;
        for (uint32_t b = 0; b < bones; ++b) {
            if (isScaled[b]) t->scaledBones[sb++] = b;
            memcpy(t->boneScales + 3u * b, firstScales + 3u * b, 12);
        }
        /* Second pass: the targets, with the scaled bones known. */
        for (uint32_t fr = 0; fr < frames; ++fr) {
            uint32_t e = 0;
            float time = 0;
            maniMatchEntry entry;
            if (maniMotionDatabase_GetFrame(db, fr, &e, &time) != mani_success) e = 0, time = 0;
            mani_TrainEntry(db, e, &entry);
            /* Samples into outBuf with room for every bone's scale, then
             * moves the root values and the rest after the scaled ones. */
            float* yRow = t->y + (size_t)fr * t->outputs;
            if (!mani_TrainSampleFrame(t, pose, values, valueCapacity, &s->clips[entry.clip], time, yRow, scales)) {
                result = mani_TrainResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
                goto failTemp;
            }
            /* mani_TrainSampleFrame wrote the root values after 9 B + 3 S
             * (t->scaled is final now); the scales go between. */
            for (uint32_t k = 0; k < t->scaled; ++k)
                memcpy(yRow + 9u * (size_t)bones + 3u * k, scales + 3u * t->scaledBones[k], 12);
            /* The targets' character space (the loss's and the Compressor's). */
            mani_TrainFkForward(t->parents, bones, yRow, fkTemp);
            for (uint32_t b = 0; b < bones; ++b)
                memcpy(t->q + ((size_t)fr * bones + b) * MANI_TRAIN_XFM, mani_TrainFkCharacter(fkTemp, b),
                       4u * MANI_TRAIN_XFM);
            if (maniMotionDatabase_GetFeatures(db, fr, t->x + (size_t)fr * t->features, t->features, NULL) != mani_success) {
                result = mani_TrainResult(mani_errorInvalid, maniBuildReasonDatabase, 0, 0);
                goto failTemp;
            }
        }
        /* Window starts: frames from which a window stays in its entry. */
        t->windowCount[0] = t->windowCount[1] = 0;
        for (uint32_t e = 0; e < db->entryCount; ++e) {
            maniMatchEntry entry;
            mani_TrainEntry(db, e, &entry);
            for (uint32_t k = 0; k < entry.frameCount; ++k) {
                if (k + o->trainingWindow <= entry.frameCount) t->windowStarts[0][t->windowCount[0]++] = entry.firstFrame + k;
                if (k + o->stepperWindow <= entry.frameCount) t->windowStarts[1][t->windowCount[1]++] = entry.firstFrame + k;
            }
        }
        uint32_t pAt = 0;
        for (uint32_t p = 0; p < s->projectorCount; ++p) {
            t->passingFirst[p] = pAt;
            const maniLearnedTrainerProjector* pj = &s->projectors[p];
            for (uint32_t e = 0; e < db->entryCount; ++e) {
                maniMatchEntry entry;
                mani_TrainEntry(db, e, &entry);
                if ((entry.tags & pj->requiredTags) == pj->requiredTags && (entry.tags & pj->excludedTags) == 0)
                    for (uint32_t k = 0; k < entry.frameCount; ++k) t->passing[pAt++] = entry.firstFrame + k;
            }
        }
        t->passingFirst[s->projectorCount] = pAt;
        /* Normalizations known now: the Compressor's input (the targets,
         * then their character space) and the Decompressor's output are
         * the targets' per column; the Decompressor's input is Holden's 0
         * and 1. */
        mani_TrainColumnStats(t->y, frames, t->outputs, t->outputs, t->yMean, t->yStd);
        memcpy(t->nets[0].inOffsets, t->yMean, 4u * t->outputs);
        memcpy(t->nets[0].inScales, t->yStd, 4u * t->outputs);
        for (uint32_t b = 1; b < bones; ++b) {
            const size_t c = t->outputs + (size_t)(b - 1u) * MANI_TRAIN_CHARACTER_INPUTS;
            mani_TrainColumnStats(t->q + (size_t)b * MANI_TRAIN_XFM, frames, MANI_TRAIN_CHARACTER_INPUTS,
                                  bones * MANI_TRAIN_XFM, t->nets[0].inOffsets + c, t->nets[0].inScales + c);
        }
        memcpy(t->nets[1].outOffsets, t->yMean, 4u * t->outputs);
        memcpy(t->nets[1].outScales, t->yStd, 4u * t->outputs);
        mani_TrainColumnStats(t->x, frames, t->features, t->features, NULL, t->noiseStd);
        for (uint32_t j = 0; j < t->features; ++j) t->noiseStd[j] = t->noiseStd[j] + 1.0f;
    }
    mani_TrainFree(t, temp, (tempSize + 63u) & ~(size_t)63u);
    mani_TrainReset(t);
    *trainerOut = t;
    return mani_TrainResult(mani_success, maniBuildReasonNone, 0, 0);
failTemp:
    mani_TrainFree(t, temp, (tempSize + 63u) & ~(size_t)63u);
fail:
    mani_TrainFree(t, t->data, t->dataSize);
    {
        maniAllocator al = t->allocator;
        al.release(al.user, t, sizeof(maniLearnedTrainer));
    }
    return result;
}

static void mani_TrainReleaseStage(maniLearnedTrainer* t) {
    mani_TrainFree(t, t->stageBlock, t->stageBlockSize);
    t->stageBlock = NULL;
    t->stageBlockSize = 0;
    t->moments = t->grads = t->weightsT = t->scratch = t->rowsArea = t->chunkLoss = t->noise = NULL;
    t->picks = NULL;
}

void maniDestroyLearnedTrainer(maniLearnedTrainer* t) {
    if (t == NULL) return;
    if (t->busy || t->destroying || t->building) {
        t->misuse++;
        return;
    }
    t->destroying = 1;
    mani_TrainReleaseStage(t);
    mani_TrainFree(t, t->data, t->dataSize);
    t->data = NULL;
    maniAllocator a = t->allocator;
    t->busy++;
    a.release(a.user, t, sizeof(maniLearnedTrainer));
}

uint32_t maniLearnedTrainer_GetMisuse(const maniLearnedTrainer* t) { return t != NULL ? t->misuse : 0; }

/* -- Stages ------------------------------------------------------------------------------ */

static uint32_t mani_TrainChunks(const maniLearnedTrainer* t) { return t->options.batchSize / MANI_LEARNED_CHUNK_SAMPLES; }

static uint64_t mani_TrainStageIterations(const maniLearnedTrainer* t, uint32_t stage) {
    return stage == MANI_TRAIN_STAGE_DECOMPRESSOR ? t->options.decompressorIterations
           : stage == MANI_TRAIN_STAGE_STEPPER    ? t->options.stepperIterations
                                                  : t->options.projectorIterations;
}

/* The parameters a stage trains: [first, first + count). */
static void mani_TrainStageRange(const maniLearnedTrainer* t, uint32_t stage, uint32_t projector, size_t* first,
                                 size_t* count) {
    if (stage == MANI_TRAIN_STAGE_DECOMPRESSOR) {
        *first = t->nets[0].first;
        *count = t->nets[0].count + t->nets[1].count;
    } else if (stage == MANI_TRAIN_STAGE_STEPPER) {
        *first = t->nets[2].first;
        *count = t->nets[2].count;
    } else {
        *first = t->nets[3 + projector].first;
        *count = t->nets[3 + projector].count;
    }
}

static uint32_t mani_TrainMaxWidest(const maniLearnedTrainer* t) {
    uint32_t w = t->state > t->outputs ? t->state : t->outputs;
    for (uint32_t n = 0; n < t->netCount; ++n)
        if (mani_TrainWidest(&t->nets[n]) > w) w = mani_TrainWidest(&t->nets[n]);
    return w;
}

/* Floats of one chunk's scratch for a stage (its buffers). */
static size_t mani_TrainScratchFloats(const maniLearnedTrainer* t) {
    const size_t widest = mani_TrainMaxWidest(t), st = t->state, out = t->outputs;
    return 4u * widest + 4u * st + 4u * out;
}

/* Floats of one row of a stage (a sample's frame, step or query: its
 * networks' values and gradients), and rows of a chunk. */
static size_t mani_TrainRowFloats(const maniLearnedTrainer* t, uint32_t stage) {
    const size_t st = t->state, out = t->outputs, l = t->latent;
    if (stage == MANI_TRAIN_STAGE_DECOMPRESSOR)
        return 2u * (t->nets[0].activations + t->nets[1].activations) + 2u * l + 2u * out +
               (size_t)MANI_TRAIN_FK_FLOATS * t->bones;
    if (stage == MANI_TRAIN_STAGE_STEPPER) return 2u * t->nets[2].activations + 3u * st;
    size_t most = 0;
    for (uint32_t p = 0; p < t->source.projectorCount; ++p)
        if (t->nets[3 + p].activations > most) most = t->nets[3 + p].activations;
    return 2u * most + st;
}
static uint32_t mani_TrainChunkRows(const maniLearnedTrainer* t, uint32_t stage) {
    return MANI_LEARNED_CHUNK_SAMPLES * (stage == MANI_TRAIN_STAGE_DECOMPRESSOR ? t->options.trainingWindow
                                         : stage == MANI_TRAIN_STAGE_STEPPER    ? t->options.stepperWindow
                                                                                : 1u);
}

/* The Stepper's and Projectors' normalizations, from the latent values
 * (Holden's: per column means; one std over the features and one over the
 * latent values for the inputs; per column stds of the outputs; the
 * Stepper's outputs the rates of consecutive frames of an entry). */
static void mani_TrainLatentStats(maniLearnedTrainer* t) {
    const uint32_t fr = t->frames, f = t->features, l = t->latent, st = t->state;
    const maniMotionDatabase* db = t->source.database;
    mani_TrainNet* sn = &t->nets[2];
    mani_TrainColumnStats(t->x, fr, f, f, sn->inOffsets, NULL);
    mani_TrainColumnStats(t->z, fr, l, l, sn->inOffsets + f, NULL);
    const float xs = mani_TrainAllStd(t->x, fr, f, f), zs = mani_TrainAllStd(t->z, fr, l, l);
    for (uint32_t j = 0; j < st; ++j) sn->inScales[j] = j < f ? xs : zs;
    for (uint32_t j = 0; j < st; ++j) {
        double s = 0.0, s2 = 0.0, n = 0.0;
        for (uint32_t e = 0; e < db->entryCount; ++e) {
            maniMatchEntry entry;
            mani_TrainEntry(db, e, &entry);
            for (uint32_t k = 0; k + 1 < entry.frameCount; ++k) {
                const size_t a = entry.firstFrame + k;
                const double v0 = j < f ? t->x[a * f + j] : t->z[a * l + (j - f)];
                const double v1 = j < f ? t->x[(a + 1) * f + j] : t->z[(a + 1) * l + (j - f)];
                const double r = (v1 - v0) / (double)t->dt;
                s += r;
                s2 += r * r;
                n += 1.0;
            }
        }
        sn->outOffsets[j] = n > 0 ? (float)(s / n) : 0.0f;
        sn->outScales[j] = n > 0 ? mani_TrainStdOr1(s, s2, n) : 1.0f;
    }
    for (uint32_t p = 0; p < t->source.projectorCount; ++p) {
        mani_TrainNet* pn = &t->nets[3 + p];
        mani_TrainColumnStats(t->x, fr, f, f, pn->inOffsets, NULL);
        for (uint32_t j = 0; j < f; ++j) pn->inScales[j] = xs;
        mani_TrainColumnStats(t->x, fr, f, f, pn->outOffsets, pn->outScales);
        mani_TrainColumnStats(t->z, fr, l, l, pn->outOffsets + f, pn->outScales + f);
    }
    t->statsReady = 1;
}

/* Allocates the running stage's memory. Returns 0 when memory runs out. */
static int mani_TrainBeginStage(maniLearnedTrainer* t) {
    if (t->stageBlock != NULL) return 1;
    size_t first, count;
    mani_TrainStageRange(t, t->stage, t->projector, &first, &count);
    const uint32_t chunks = mani_TrainChunks(t), batch = t->options.batchSize;
    const size_t per = (mani_TrainScratchFloats(t) + 15u) & ~(size_t)15u;
    /* Every chunk's rows one after another at one stride (no padding), so
     * that the chunks of a call without task hooks run as one. */
    const size_t rowFloats = mani_TrainRowFloats(t, t->stage);
    const size_t rows = (size_t)chunks * mani_TrainChunkRows(t, t->stage) * rowFloats;
    const size_t countPad = (count + 15u) & ~(size_t)15u;
    const size_t lossPad = ((size_t)chunks + 15u) & ~(size_t)15u; /* a loss per chunk (up to 1024) */
    const size_t floats = 4u * countPad + (size_t)chunks * countPad + (size_t)chunks * per + lossPad +
                          (size_t)batch * t->features + 16u + ((rows + 15u) & ~(size_t)15u);
    const size_t size = 4u * floats + 4u * (size_t)batch + 64u;
    uint8_t* block = (uint8_t*)mani_TrainAlloc(t, size, 64);
    if (block == NULL) return 0;
    memset(block, 0, size);
    t->stageBlock = block;
    t->stageBlockSize = size;
    float* at = (float*)(void*)block;
    t->moments = at, at += 3u * countPad;
    t->grads = at, at += (size_t)chunks * countPad;
    t->weightsT = at, at += countPad;
    t->scratch = at, at += (size_t)chunks * per;
    t->rowsArea = at, at += (rows + 15u) & ~(size_t)15u;
    t->rowFloats = rowFloats;
    t->chunkLoss = at, at += lossPad;
    t->noise = at, at += (size_t)batch * t->features + 16u;
    t->picks = (uint32_t*)(void*)at;
    t->scratchPerChunk = per;
    t->stageFirst = first;
    t->stageCount = countPad;
    (void)count;
    if (t->stage != MANI_TRAIN_STAGE_DECOMPRESSOR && !t->statsReady) mani_TrainLatentStats(t);
    return 1;
}

/* The running stage's networks' weights transposed (t->weightsT, at each
 * network's offset in the stage), from the parameters as they are now. */
static void mani_TrainTransposeStage(maniLearnedTrainer* t) {
    const uint32_t first = t->stage == MANI_TRAIN_STAGE_DECOMPRESSOR ? 0u
                           : t->stage == MANI_TRAIN_STAGE_STEPPER    ? 2u
                                                                     : 3u + t->projector;
    const uint32_t end = t->stage == MANI_TRAIN_STAGE_DECOMPRESSOR ? 2u : first + 1u;
    for (uint32_t n = first; n < end; ++n)
        mani_TrainTransposeNet(&t->nets[n], t->params, t->weightsT + (t->nets[n].first - t->stageFirst));
}

/* A network's transposed weights (a network of the running stage). */
static const float* mani_TrainWt(const maniLearnedTrainer* t, const mani_TrainNet* n) {
    return t->weightsT + (n->first - t->stageFirst);
}

/* Stage 1's losses (Holden's decompressor terms on the local values, the
 * local velocities and the latent regularization) and gradients for one
 * chunk. */
static void mani_TrainChunkDecompressor(maniLearnedTrainer* t, uint32_t c0, uint32_t c1) {
    const mani_TrainNet* cn = &t->nets[0];
    const mani_TrainNet* dn = &t->nets[1];
    const uint32_t W = t->options.trainingWindow, B = t->options.batchSize;
    const uint32_t f = t->features, l = t->latent, out = t->outputs, bones = t->bones;
    const uint32_t widest = mani_TrainMaxWidest(t);
    float* sc = t->scratch + (size_t)c0 * t->scratchPerChunk;
    float* in = sc + 2u * widest;
    const uint32_t S = (c1 - c0) * MANI_LEARNED_CHUNK_SAMPLES; /* the chunks' samples, in order */
    float* perFrame = t->rowsArea + (size_t)c0 * mani_TrainChunkRows(t, t->stage) * t->rowFloats;
    /* Row si W + w (sample si's frame w): the Compressor's and the
     * Decompressor's acts, z, the output, their gradients, the two
     * networks' gradients (mani_TrainBackwardRows), then the output's
     * kinematics (mani_TrainFkForward). */
    const size_t stride = mani_TrainRowFloats(t, MANI_TRAIN_STAGE_DECOMPRESSOR);
    const size_t fkAt = 2u * (cn->activations + dn->activations) + 2u * l + 2u * out;
    const uint32_t rows = S * W;
    const size_t da0At = cn->activations + dn->activations + 2u * l + 2u * out, da1At = da0At + cn->activations;
    const float dt = t->dt;
    /* The groups of the outputs and their weights. */
    const float fB = (float)B, fW = (float)W, fW1 = (float)(W - 1u);
    const float kPos = 75.0f / (fB * fW * (float)(3u * bones)), kTxy = 10.0f / (fB * fW * (float)(6u * bones));
    const float kScale = t->scaled > 0 ? 10.0f / (fB * fW * (float)(3u * t->scaled)) : 0.0f;
    const float kRvel = 2.0f / (fB * fW * 3.0f), kRang = 2.0f / (fB * fW * 3.0f);
    const float kExtra = t->tracks + t->events > 0 ? 2.0f / (fB * fW * (float)(t->tracks + t->events)) : 0.0f;
    const float kVPos = 10.0f / (fB * fW1 * (float)(3u * bones)), kVTxy = 1.75f / (fB * fW1 * (float)(6u * bones));
    const float kS = 0.1f / (fB * fW * (float)l), kL = 0.1f / (fB * fW * (float)l), kV = 0.01f / (fB * fW1 * (float)l);
    /* Holden's character-space terms: positions 15, rotation matrices 5,
     * their velocities over the window 2 and 0.75 (every bone's). */
    const float kCPos = 15.0f / (fB * fW * (float)(3u * bones)), kCRot = 5.0f / (fB * fW * (float)(9u * bones));
    const float kCVPos = 2.0f / (fB * fW1 * (float)(3u * bones)), kCVRot = 0.75f / (fB * fW1 * (float)(9u * bones));
    float loss = 0.0f;
    /* Every row's Compressor, then every row's Decompressor (each row's
     * values as mani_TrainRun's). */
    for (uint32_t si = 0; si < S; ++si) {
        const uint32_t start = t->picks[c0 * MANI_LEARNED_CHUNK_SAMPLES + si];
        for (uint32_t w = 0; w < W; ++w) {
            float* a0 = perFrame + (size_t)(si * W + w) * stride;
            for (uint32_t j = 0; j < cn->in[0]; ++j) {
                const float d = mani_TrainCompressorInput(t, start + w, j) - cn->inOffsets[j];
                a0[j] = d / cn->inScales[j];
            }
        }
    }
    mani_TrainForwardRows(cn, t->params, mani_TrainWt(t, cn), perFrame, stride, rows);
    for (uint32_t si = 0; si < S; ++si) {
        const uint32_t start = t->picks[c0 * MANI_LEARNED_CHUNK_SAMPLES + si];
        for (uint32_t w = 0; w < W; ++w) {
            float* a0 = perFrame + (size_t)(si * W + w) * stride;
            float* a1 = a0 + cn->activations;
            float* zw = a1 + dn->activations;
            const float* last = a0 + mani_TrainLastAt(cn);
            for (uint32_t i = 0; i < l; ++i) {
                const float m = last[i] * cn->outScales[i];
                zw[i] = m + cn->outOffsets[i];
            }
            const size_t fr = (size_t)start + w;
            memcpy(in, t->x + fr * f, 4u * f);
            memcpy(in + f, zw, 4u * l);
            for (uint32_t j = 0; j < dn->in[0]; ++j) {
                const float d = in[j] - dn->inOffsets[j];
                a1[j] = d / dn->inScales[j];
            }
        }
    }
    mani_TrainForwardRows(dn, t->params, mani_TrainWt(t, dn), perFrame + cn->activations, stride, rows);
    for (uint32_t r = 0; r < rows; ++r) {
        float* a1 = perFrame + (size_t)r * stride + cn->activations;
        float* yt = a1 + dn->activations + l;
        const float* last = a1 + mani_TrainLastAt(dn);
        for (uint32_t i = 0; i < out; ++i) {
            const float m = last[i] * dn->outScales[i];
            yt[i] = m + dn->outOffsets[i];
        }
        mani_TrainFkForward(t->parents, bones, yt, perFrame + (size_t)r * stride + fkAt);
    }
    for (uint32_t si = 0; si < S; ++si) {
        const uint32_t start = t->picks[c0 * MANI_LEARNED_CHUNK_SAMPLES + si];
        float* sample = perFrame + (size_t)si * W * stride;
        if (si % MANI_LEARNED_CHUNK_SAMPLES == 0) loss = 0.0f; /* each chunk's loss over its samples in order */
        for (uint32_t w = 0; w < W; ++w) {
            float* a0 = sample + (size_t)w * stride;
            float* a1 = a0 + cn->activations;
            float* zw = a1 + dn->activations;
            float* yt = zw + l;
            float* dy = yt + out;
            float* dz = dy + out;
            memset(dy, 0, 4u * out);
            memset(dz, 0, 4u * l);
            (void)a0;
            const float* yg = t->y + ((size_t)start + w) * out;
            for (uint32_t i = 0; i < out; ++i) {
                float k;
                if (i < 9u * bones)
                    k = i % 9u < 3u ? kPos : kTxy;
                else if (i < 9u * bones + 3u * t->scaled)
                    k = kScale;
                else if (i < 9u * bones + 3u * t->scaled + 3u)
                    k = kRvel;
                else if (i < 9u * bones + 3u * t->scaled + 6u)
                    k = kRang;
                else
                    k = kExtra;
                const float d = yg[i] - yt[i];
                const float m = k * fabsf(d);
                loss = loss + m;
                if (d > 0.0f) dy[i] = dy[i] - k;
                if (d < 0.0f) dy[i] = dy[i] + k;
            }
            for (uint32_t j = 0; j < l; ++j) {
                const float v = zw[j];
                const float m = kS * fabsf(v);
                loss = loss + m;
                const float q = v * v;
                const float m2 = kL * q;
                loss = loss + m2;
                float gz = v > 0.0f ? kS : v < 0.0f ? -kS : 0.0f;
                const float two = 2.0f * kL;
                const float lz = two * v;
                gz = gz + lz;
                dz[j] = dz[j] + gz;
            }
            float* fk = a0 + fkAt;
            const float* qg = t->q + ((size_t)start + w) * bones * MANI_TRAIN_XFM;
            for (uint32_t b = 0; b < bones; ++b) {
                const float* qt = mani_TrainFkCharacter(fk, b);
                float* dq = mani_TrainFkCharacterGrad(fk, b);
                for (uint32_t i = 0; i < MANI_TRAIN_XFM; ++i) {
                    const float k = i < 3u ? kCPos : kCRot;
                    const float d = qg[b * MANI_TRAIN_XFM + i] - qt[i];
                    const float m = k * fabsf(d);
                    loss = loss + m;
                    if (d > 0.0f) dq[i] = dq[i] - k;
                    if (d < 0.0f) dq[i] = dq[i] + k;
                }
            }
        }
        /* Velocities over the window. */
        for (uint32_t w = 0; w + 1 < W; ++w) {
            float* A = sample + (size_t)w * stride;
            float* Bf = sample + (size_t)(w + 1) * stride;
            float* zA = A + cn->activations + dn->activations;
            float* zB = Bf + cn->activations + dn->activations;
            float* ytA = zA + l;
            float* ytB = zB + l;
            float* dyA = ytA + out;
            float* dyB = ytB + out;
            float* dzA = dyA + out;
            float* dzB = dyB + out;
            const float* ygA = t->y + ((size_t)start + w) * out;
            const float* ygB = ygA + out;
            for (uint32_t i = 0; i < 9u * bones; ++i) {
                const float k = i % 9u < 3u ? kVPos : kVTxy;
                const float gv = (ygB[i] - ygA[i]) / dt;
                const float tv = (ytB[i] - ytA[i]) / dt;
                const float d = gv - tv;
                const float m = k * fabsf(d);
                loss = loss + m;
                const float gg = d > 0.0f ? k / dt : d < 0.0f ? -k / dt : 0.0f;
                dyB[i] = dyB[i] - gg;
                dyA[i] = dyA[i] + gg;
            }
            for (uint32_t j = 0; j < l; ++j) {
                const float v = (zB[j] - zA[j]) / dt;
                const float m = kV * fabsf(v);
                loss = loss + m;
                const float gg = v > 0.0f ? kV / dt : v < 0.0f ? -kV / dt : 0.0f;
                dzB[j] = dzB[j] + gg;
                dzA[j] = dzA[j] - gg;
            }
            float* fkA = A + fkAt;
            float* fkB = Bf + fkAt;
            const float* qgA = t->q + ((size_t)start + w) * bones * MANI_TRAIN_XFM;
            const float* qgB = qgA + (size_t)bones * MANI_TRAIN_XFM;
            for (uint32_t b = 0; b < bones; ++b) {
                const float* qtA = mani_TrainFkCharacter(fkA, b);
                const float* qtB = mani_TrainFkCharacter(fkB, b);
                float* dqA = mani_TrainFkCharacterGrad(fkA, b);
                float* dqB = mani_TrainFkCharacterGrad(fkB, b);
                for (uint32_t i = 0; i < MANI_TRAIN_XFM; ++i) {
                    const float k = i < 3u ? kCVPos : kCVRot;
                    const size_t qi = (size_t)b * MANI_TRAIN_XFM + i;
                    const float gv = (qgB[qi] - qgA[qi]) / dt;
                    const float tv = (qtB[i] - qtA[i]) / dt;
                    const float d = gv - tv;
                    const float m = k * fabsf(d);
                    loss = loss + m;
                    const float gg = d > 0.0f ? k / dt : d < 0.0f ? -k / dt : 0.0f;
                    dqB[i] = dqB[i] - gg;
                    dqA[i] = dqA[i] + gg;
                }
            }
        }
        if (si % MANI_LEARNED_CHUNK_SAMPLES == MANI_LEARNED_CHUNK_SAMPLES - 1u)
            t->chunkLoss[c0 + si / MANI_LEARNED_CHUNK_SAMPLES] = loss;
    }
    /* Back through the Decompressor, then the Compressor, every row; then
     * each network's parameters' gradients, row after row (the order of
     * the frames of the samples). */
    for (uint32_t r = 0; r < rows; ++r) {
        float* a0 = perFrame + (size_t)r * stride;
        float* dy = a0 + cn->activations + dn->activations + l + out;
        /* The character-space terms' gradient joins the outputs' first. */
        mani_TrainFkBackward(t->parents, bones, dy - out, a0 + fkAt, dy);
        float* dOut = a0 + da1At + mani_TrainLastAt(dn);
        for (uint32_t i = 0; i < out; ++i) dOut[i] = dy[i] * dn->outScales[i];
    }
    mani_TrainBackwardRows(dn, t->params, perFrame + cn->activations, stride, perFrame + da1At, stride, rows, 1);
    for (uint32_t r = 0; r < rows; ++r) {
        float* a0 = perFrame + (size_t)r * stride;
        const float* dz = a0 + cn->activations + dn->activations + l + 2u * out;
        const float* dIn = a0 + da1At;
        float* dOut = a0 + da0At + mani_TrainLastAt(cn);
        for (uint32_t j = 0; j < l; ++j) {
            const float d = dIn[f + j] / dn->inScales[f + j];
            dOut[j] = dz[j] + d;
        }
        for (uint32_t j = 0; j < l; ++j) dOut[j] = dOut[j] * cn->outScales[j];
    }
    mani_TrainBackwardRows(cn, t->params, perFrame, stride, perFrame + da0At, stride, rows, 0);
    for (uint32_t c = c0; c < c1; ++c) {
        /* Each chunk's own gradients, over its own rows. */
        float* g = t->grads + (size_t)c * t->stageCount;
        const uint32_t cr = MANI_LEARNED_CHUNK_SAMPLES * W;
        float* rc = perFrame + (size_t)(c - c0) * cr * stride;
        /* The chunk's buffer written from +0 (its networks are the stage's every parameter). */
        mani_TrainGradRows(dn, rc + cn->activations, stride, rc + da1At, stride, cr, g + (dn->first - t->stageFirst), 1);
        mani_TrainGradRows(cn, rc, stride, rc + da0At, stride, cr, g + (cn->first - t->stageFirst), 1);
    }
}

/* Stage 2: the Stepper run on over a window from its first frame's state
 * (Holden's value and velocity terms), back through every step. */
static void mani_TrainChunkStepper(maniLearnedTrainer* t, uint32_t c0, uint32_t c1) {
    const mani_TrainNet* sn = &t->nets[2];
    const uint32_t W = t->options.stepperWindow, B = t->options.batchSize;
    const uint32_t f = t->features, l = t->latent, st = t->state;
    const uint32_t S = (c1 - c0) * MANI_LEARNED_CHUNK_SAMPLES; /* the chunks' samples, in order */
    float* per = t->rowsArea + (size_t)c0 * mani_TrainChunkRows(t, t->stage) * t->rowFloats;
    /* Sample si's step k is row si W + (W - 1 - k): acts, state, rate,
     * gradient, then the network's gradients (mani_TrainBackwardRows). A
     * step's rows of the samples are W rows apart; a sample's steps
     * from the last down to 1 are consecutive rows (the order its
     * gradients are added in). */
    const size_t stride = 2u * (size_t)sn->activations + 3u * st, daAt = sn->activations + 3u * st;
    const size_t across = (size_t)W * stride;
#define MANI_STEP_ROW(si, k) (per + ((size_t)(si) * W + (W - 1u - (k))) * stride)
    const float dt = t->dt;
    const float fB = (float)B, fW = (float)W, fW1 = (float)(W - 1u);
    const float kX = 2.0f / (fB * fW * (float)f), kZ = 15.0f / (fB * fW * (float)l);
    const float kXV = 0.2f / (fB * fW1 * (float)f), kZV = 1.5f / (fB * fW1 * (float)l);
    for (uint32_t si = 0; si < S; ++si) {
        const uint32_t start = t->picks[c0 * MANI_LEARNED_CHUNK_SAMPLES + si];
        float* s0 = MANI_STEP_ROW(si, 0) + sn->activations;
        memset(s0 + 2u * st, 0, 4u * st);
        memcpy(s0, t->x + (size_t)start * f, 4u * f);
        memcpy(s0 + f, t->z + (size_t)start * l, 4u * l);
    }
    /* Each step of the samples together (each row's values as
     * mani_TrainRun's). */
    for (uint32_t k = 1; k < W; ++k) {
        for (uint32_t si = 0; si < S; ++si) {
            float* acts = MANI_STEP_ROW(si, k);
            const float* prev = MANI_STEP_ROW(si, k - 1) + sn->activations;
            for (uint32_t j = 0; j < sn->in[0]; ++j) {
                const float d = prev[j] - sn->inOffsets[j];
                acts[j] = d / sn->inScales[j];
            }
        }
        mani_TrainForwardRows(sn, t->params, mani_TrainWt(t, sn), MANI_STEP_ROW(0, k), across, S);
        for (uint32_t si = 0; si < S; ++si) {
            float* acts = MANI_STEP_ROW(si, k);
            float* s = acts + sn->activations;
            float* rate = s + st;
            float* gs = rate + st;
            const float* prev = MANI_STEP_ROW(si, k - 1) + sn->activations;
            const float* last = acts + mani_TrainLastAt(sn);
            memset(gs, 0, 4u * st);
            for (uint32_t i = 0; i < st; ++i) {
                const float m = last[i] * sn->outScales[i];
                rate[i] = m + sn->outOffsets[i];
            }
            for (uint32_t j = 0; j < st; ++j) {
                const float m = rate[j] * dt;
                s[j] = prev[j] + m;
            }
        }
    }
    float loss = 0.0f;
    for (uint32_t si = 0; si < S; ++si) {
        const uint32_t start = t->picks[c0 * MANI_LEARNED_CHUNK_SAMPLES + si];
        if (si % MANI_LEARNED_CHUNK_SAMPLES == 0) loss = 0.0f; /* each chunk's loss over its samples in order */
        for (uint32_t k = 0; k < W; ++k) {
            float* s = MANI_STEP_ROW(si, k) + sn->activations;
            float* gs = s + 2u * st;
            const size_t fr = (size_t)start + k;
            for (uint32_t j = 0; j < st; ++j) {
                const float gnd = j < f ? t->x[fr * f + j] : t->z[fr * l + (j - f)];
                const float kk = j < f ? kX : kZ;
                const float d = gnd - s[j];
                const float m = kk * fabsf(d);
                loss = loss + m;
                if (d > 0.0f) gs[j] = gs[j] - kk;
                if (d < 0.0f) gs[j] = gs[j] + kk;
            }
            if (k == 0) continue;
            float* sp = MANI_STEP_ROW(si, k - 1) + sn->activations;
            float* gsp = sp + 2u * st;
            for (uint32_t j = 0; j < st; ++j) {
                const float g1 = j < f ? t->x[fr * f + j] : t->z[fr * l + (j - f)];
                const float g0 = j < f ? t->x[(fr - 1) * f + j] : t->z[(fr - 1) * l + (j - f)];
                const float kk = j < f ? kXV : kZV;
                const float gv = (g1 - g0) / dt;
                const float tv = (s[j] - sp[j]) / dt;
                const float d = gv - tv;
                const float m = kk * fabsf(d);
                loss = loss + m;
                const float gg = d > 0.0f ? kk / dt : d < 0.0f ? -kk / dt : 0.0f;
                gs[j] = gs[j] - gg;
                gsp[j] = gsp[j] + gg;
            }
        }
        if (si % MANI_LEARNED_CHUNK_SAMPLES == MANI_LEARNED_CHUNK_SAMPLES - 1u)
            t->chunkLoss[c0 + si / MANI_LEARNED_CHUNK_SAMPLES] = loss;
    }
    /* Back through every step, the last first, the samples together;
     * then each sample's parameters' gradients, its steps from the last
     * down, sample after sample. */
    for (uint32_t k = W; k-- > 1;) {
        for (uint32_t si = 0; si < S; ++si) {
            float* acts = MANI_STEP_ROW(si, k);
            const float* gs = acts + sn->activations + 2u * st;
            float* dOut = acts + daAt + mani_TrainLastAt(sn);
            for (uint32_t j = 0; j < st; ++j) {
                const float dr = gs[j] * dt;
                dOut[j] = dr * sn->outScales[j];
            }
        }
        mani_TrainBackwardRows(sn, t->params, MANI_STEP_ROW(0, k), across, MANI_STEP_ROW(0, k) + daAt, across, S, 1);
        for (uint32_t si = 0; si < S; ++si) {
            float* acts = MANI_STEP_ROW(si, k);
            const float* gs = acts + sn->activations + 2u * st;
            const float* dIn = acts + daAt;
            float* gsp = MANI_STEP_ROW(si, k - 1) + sn->activations + 2u * st;
            for (uint32_t j = 0; j < st; ++j) {
                const float d = dIn[j] / sn->inScales[j];
                const float sum = gs[j] + d;
                gsp[j] = gsp[j] + sum;
            }
        }
    }
    for (uint32_t si = 0; si < S; ++si) {
        float* g = t->grads + (size_t)(c0 + si / MANI_LEARNED_CHUNK_SAMPLES) * t->stageCount; /* its chunk's */
        /* A chunk's first sample writes its buffer from +0. */
        mani_TrainGradRows(sn, MANI_STEP_ROW(si, W - 1u), stride, MANI_STEP_ROW(si, W - 1u) + daAt, stride, W - 1u, g,
                           si % MANI_LEARNED_CHUNK_SAMPLES == 0);
    }
#undef MANI_STEP_ROW
}

/* Stage 3: a Projector from a noisy query to the nearest passing frame's
 * state (Holden's value and distance terms). */
static void mani_TrainChunkProjector(maniLearnedTrainer* t, uint32_t c0, uint32_t c1) {
    const mani_TrainNet* pn = &t->nets[3 + t->projector];
    const uint32_t B = t->options.batchSize, f = t->features, l = t->latent, st = t->state;
    /* Row si (sample si of the chunks, in order): the network's acts, its
     * outputs, its gradients (mani_TrainBackwardRows). */
    float* rowsAt = t->rowsArea + (size_t)c0 * mani_TrainChunkRows(t, t->stage) * t->rowFloats;
    const size_t stride = 2u * (size_t)pn->activations + st, daAt = pn->activations + st;
    const uint32_t rows = (c1 - c0) * MANI_LEARNED_CHUNK_SAMPLES;
    const float fB = (float)B;
    const float kX = 1.0f / (fB * (float)f), kZ = 9.0f / (fB * (float)l), kD = 0.2f / fB;
    const uint32_t first = t->passingFirst[t->projector], count = t->passingFirst[t->projector + 1] - first;
    for (uint32_t si = 0; si < rows; ++si) {
        const float* xh = t->noise + (size_t)(c0 * MANI_LEARNED_CHUNK_SAMPLES + si) * f;
        float* acts = rowsAt + (size_t)si * stride;
        for (uint32_t j = 0; j < pn->in[0]; ++j) {
            const float d = xh[j] - pn->inOffsets[j];
            acts[j] = d / pn->inScales[j];
        }
    }
    mani_TrainForwardRows(pn, t->params, mani_TrainWt(t, pn), rowsAt, stride, rows);
    float loss = 0.0f;
    for (uint32_t si = 0; si < rows; ++si) {
        const float* xh = t->noise + (size_t)(c0 * MANI_LEARNED_CHUNK_SAMPLES + si) * f;
        if (si % MANI_LEARNED_CHUNK_SAMPLES == 0) loss = 0.0f; /* each chunk's loss over its samples in order */
        /* The nearest passing frame (the first of equal distances). */
        uint32_t best = t->passing[first];
        float bestD = INFINITY;
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t fr = t->passing[first + k];
            const float* xr = t->x + (size_t)fr * f;
            float d2 = 0.0f;
            for (uint32_t j = 0; j < f; ++j) {
                const float d = xh[j] - xr[j];
                const float q = d * d;
                d2 = d2 + q;
            }
            if (d2 < bestD) bestD = d2, best = fr;
        }
        const float dg = sqrtf(bestD);
        float* acts = rowsAt + (size_t)si * stride;
        float* o = acts + pn->activations;
        float* dOut = acts + daAt + mani_TrainLastAt(pn);
        const float* last = acts + mani_TrainLastAt(pn);
        for (uint32_t i = 0; i < st; ++i) {
            const float m = last[i] * pn->outScales[i];
            o[i] = m + pn->outOffsets[i];
        }
        float d2 = 0.0f;
        for (uint32_t j = 0; j < f; ++j) {
            const float d = xh[j] - o[j];
            const float q = d * d;
            d2 = d2 + q;
        }
        const float dtil = sqrtf(d2);
        for (uint32_t j = 0; j < st; ++j) dOut[j] = 0.0f;
        for (uint32_t j = 0; j < st; ++j) {
            const float gnd = j < f ? t->x[(size_t)best * f + j] : t->z[(size_t)best * l + (j - f)];
            const float kk = j < f ? kX : kZ;
            const float d = gnd - o[j];
            const float m = kk * fabsf(d);
            loss = loss + m;
            if (d > 0.0f) dOut[j] = dOut[j] - kk;
            if (d < 0.0f) dOut[j] = dOut[j] + kk;
        }
        {
            const float d = dg - dtil;
            const float m = kD * fabsf(d);
            loss = loss + m;
            const float gD = d > 0.0f ? -kD : d < 0.0f ? kD : 0.0f;
            if (gD != 0.0f && dtil > 0.0f)
                for (uint32_t j = 0; j < f; ++j) {
                    const float r = (xh[j] - o[j]) / dtil;
                    const float q = gD * r;
                    dOut[j] = dOut[j] - q;
                }
        }
        for (uint32_t j = 0; j < st; ++j) dOut[j] = dOut[j] * pn->outScales[j];
        if (si % MANI_LEARNED_CHUNK_SAMPLES == MANI_LEARNED_CHUNK_SAMPLES - 1u)
            t->chunkLoss[c0 + si / MANI_LEARNED_CHUNK_SAMPLES] = loss;
    }
    mani_TrainBackwardRows(pn, t->params, rowsAt, stride, rowsAt + daAt, stride, rows, 0);
    for (uint32_t c = c0; c < c1; ++c) {
        /* Each chunk's own gradients, over its own rows. */
        float* rc = rowsAt + (size_t)(c - c0) * MANI_LEARNED_CHUNK_SAMPLES * stride;
        mani_TrainGradRows(pn, rc, stride, rc + daAt, stride, MANI_LEARNED_CHUNK_SAMPLES,
                           t->grads + (size_t)c * t->stageCount, 1);
    }
}

/* A standard normal from two uniforms (Box and Muller), lib/core's math. */
static void mani_TrainNormalPair(mcore_Rng* rng, float* a, float* b) {
    const float u1 = 1.0f - mcore_RngFloat01(rng);
    const float u2 = mcore_RngFloat01(rng);
    const float r = sqrtf(-2.0f * mcore_logf(u1));
    const float angle = 6.28318530717958647692f * u2;
    *a = r * mcore_cosf(angle);
    *b = r * mcore_sinf(angle);
}

/* The batch of an iteration, drawn from the trainer's generator in order. */
static void mani_TrainDrawBatch(maniLearnedTrainer* t) {
    const uint32_t batch = t->options.batchSize, f = t->features;
    if (t->stage == MANI_TRAIN_STAGE_PROJECTORS) {
        const uint32_t first = t->passingFirst[t->projector], count = t->passingFirst[t->projector + 1] - first;
        for (uint32_t s = 0; s < batch; ++s) {
            const uint32_t fr = t->passing[first + mcore_RngBelow(&t->rng, count)];
            t->picks[s] = fr;
            const float sigma = mcore_RngFloat01(&t->rng);
            float* xh = t->noise + (size_t)s * f;
            for (uint32_t j = 0; j < f; j += 2) {
                float n0, n1;
                mani_TrainNormalPair(&t->rng, &n0, &n1);
                for (uint32_t k = 0; k < 2 && j + k < f; ++k) {
                    const float m = t->noiseStd[j + k] * sigma;
                    const float q = m * (k == 0 ? n0 : n1);
                    xh[j + k] = t->x[(size_t)fr * f + j + k] + q;
                }
            }
        }
        return;
    }
    const uint32_t which = t->stage == MANI_TRAIN_STAGE_DECOMPRESSOR ? 0u : 1u;
    for (uint32_t s = 0; s < batch; ++s) t->picks[s] = t->windowStarts[which][mcore_RngBelow(&t->rng, t->windowCount[which])];
}

/* AdamW with amsgrad, as PyTorch's single-tensor step writes it. */
/* The step's constants (AdamW with the bias corrections of the step it
 * counts): k for maniSimd_TrainAdamW. */
static void mani_TrainAdamWConstants(maniLearnedTrainer* t, float k[7]) {
    const maniLearnedTrainerOptions* o = &t->options;
    t->beta1Power = t->beta1Power * o->beta1;
    t->beta2Power = t->beta2Power * o->beta2;
    const float lr = t->learningRate;
    const float lrwd = lr * o->weightDecay;
    const float decay = 1.0f - lrwd;
    const float c1 = 1.0f - o->beta1, c2 = 1.0f - o->beta2;
    const float bc1 = 1.0f - t->beta1Power, bc2 = 1.0f - t->beta2Power;
    const float stepSize = lr / bc1;
    const float bc2Sqrt = sqrtf(bc2);
    /* Element by element (maniSimd_TrainAdamW's order): p decayed, m and v
     * moved towards g and g g, vmax the larger, p stepped by m over
     * sqrt(vmax) / bc2Sqrt + epsilon. */
    k[0] = decay, k[1] = c1, k[2] = o->beta2, k[3] = c2, k[4] = bc2Sqrt, k[5] = o->epsilon, k[6] = stepSize;
}

/* Parameters [first, end) of the stage: the chunks' gradients summed into
 * chunk 0's in chunk order, then the step. */
static void mani_TrainSumAndStepRange(maniLearnedTrainer* t, uint32_t chunks, const float k[7], size_t first,
                                      size_t end) {
    float* g0 = t->grads + first;
    for (uint32_t c = 1; c < chunks; ++c) {
        const float* gc = t->grads + (size_t)c * t->stageCount + first;
        maniSimd_TrainAxpy(g0, gc, 1.0f, end - first); /* g0 + gc * 1: g0 + gc, every bit */
    }
    float* m = t->moments;
    float* v = m + t->stageCount;
    float* vmax = v + t->stageCount;
    maniSimd_TrainAdamW(t->params + t->stageFirst + first, m + first, v + first, vmax + first, g0, end - first, k);
}

typedef struct mani_TrainStepTask {
    maniLearnedTrainer* trainer;
    uint32_t chunks, tasks;
    size_t count; /* the stage's parameters */
    float k[7];
} mani_TrainStepTask;

/* Task i's range: the parameters split evenly in whole groups of 16. */
static void mani_TrainStepTaskRun(void* data, uint32_t index) {
    mani_TrainStepTask* task = (mani_TrainStepTask*)data;
    const size_t groups = (task->count + 15u) / 16u;
    size_t first = groups * index / task->tasks * 16u, end = groups * (index + 1u) / task->tasks * 16u;
    if (end > task->count) end = task->count;
    if (first < end) mani_TrainSumAndStepRange(task->trainer, task->chunks, task->k, first, end);
}

/* The chunks' gradients summed and the step taken over the stage's count
 * parameters: on the hooks (maxTasks ranges) when they take more than one
 * task, else here. */
static void mani_TrainSumAndStep(maniLearnedTrainer* t, uint32_t chunks, size_t count) {
    mani_TrainStepTask task;
    task.trainer = t;
    task.chunks = chunks;
    task.count = count;
    mani_TrainAdamWConstants(t, task.k);
    task.tasks = t->tasks.begin == NULL || t->tasks.maxTasks < 2 ? 1u : t->tasks.maxTasks;
    if (task.tasks == 1) {
        mani_TrainSumAndStepRange(t, chunks, task.k, 0, count);
        return;
    }
    t->busy++;
    void* handle = t->tasks.begin(t->tasks.user, mani_TrainStepTaskRun, &task, task.tasks);
    t->tasks.wait(t->tasks.user, handle);
    t->busy--;
}

/* Stage 1's end: every frame's latent values, the Compressor's of its targets. */
static void mani_TrainComputeLatent(maniLearnedTrainer* t) {
    const mani_TrainNet* cn = &t->nets[0];
    float* acts = t->rowsArea; /* at least a row of stage 1: the Compressor's acts */
    mani_TrainTransposeStage(t); /* the last step's weights */
    float* in = t->scratch; /* a chunk's scratch: at least the widest network's values */
    for (uint32_t fr = 0; fr < t->frames; ++fr) {
        for (uint32_t j = 0; j < cn->in[0]; ++j) in[j] = mani_TrainCompressorInput(t, fr, j);
        mani_TrainRun(cn, t->params, mani_TrainWt(t, cn), in, acts, t->z + (size_t)fr * t->latent);
    }
}

static void mani_TrainEndStage(maniLearnedTrainer* t) {
    if (t->stage == MANI_TRAIN_STAGE_DECOMPRESSOR) {
        mani_TrainComputeLatent(t);
        t->statsReady = 0;
    }
    mani_TrainReleaseStage(t);
    if (t->stage == MANI_TRAIN_STAGE_PROJECTORS && t->projector + 1 < t->source.projectorCount)
        t->projector++;
    else
        t->stage++;
    t->stageIteration = 0;
    t->learningRate = t->options.learningRate;
    t->beta1Power = 1.0f;
    t->beta2Power = 1.0f;
}

maniResult maniLearnedTrainer_Train(maniLearnedTrainer* t, uint64_t iterations, maniLearnedTrainerReport* reportOut) {
    if (t == NULL) return mani_errorInvalid;
    maniResult entered = mani_TrainEnter(t, 1);
    if (entered != mani_success) return entered;
    uint64_t done = 0;
    float lastLoss = 0.0f;
    maniResult result = mani_success;
    while (done < iterations && t->stage < MANI_TRAIN_STAGE_DONE) {
        if (!mani_TrainBeginStage(t)) {
            result = mani_errorCapacity;
            break;
        }
        mani_TrainDrawBatch(t);
        mani_TrainTransposeStage(t);
        const uint32_t chunks = mani_TrainChunks(t);
        void (*chunk)(maniLearnedTrainer*, uint32_t, uint32_t) = t->stage == MANI_TRAIN_STAGE_DECOMPRESSOR ? mani_TrainChunkDecompressor
                                                       : t->stage == MANI_TRAIN_STAGE_STEPPER    ? mani_TrainChunkStepper
                                                                                                 : mani_TrainChunkProjector;
        mani_TrainRunChunks(t, chunk, chunks);
        /* The chunks' gradients summed in chunk order and the step, on the
         * hooks' threads by ranges of the parameters when they take more
         * than one task (element by element: the same bits). */
        float loss = 0.0f;
        for (uint32_t c = 0; c < chunks; ++c) loss = loss + t->chunkLoss[c];
        size_t first, count;
        mani_TrainStageRange(t, t->stage, t->projector, &first, &count);
        mani_TrainSumAndStep(t, chunks, count);
        lastLoss = loss;
        if (t->stageIteration % t->options.decayInterval == 0) t->learningRate = t->learningRate * t->options.decayRate;
        t->stageIteration++;
        done++;
        if (t->stageIteration >= mani_TrainStageIterations(t, t->stage)) mani_TrainEndStage(t);
    }
    if (reportOut != NULL) {
        reportOut->stage = t->stage;
        reportOut->projector = t->projector;
        reportOut->iterations = done;
        reportOut->stageIteration = t->stageIteration;
        reportOut->lastLoss = lastLoss;
        reportOut->learningRate = t->learningRate;
    }
    return result;
}

/* -- Checkpoints (docs/formats.md, "Trainer checkpoint") ------------------------------ */

#define MANI_TRAIN_CKPT_TAG(id) MCORE_TAG(mcore_formatLearnedCheckpoint1, id)
#define MANI_TRAIN_CKPT_SECTIONS 4u
#define MANI_TRAIN_CKPT_INFO_SIZE 64u
static const mcore_SectionSpec maniTrainCheckpointSections[MANI_TRAIN_CKPT_SECTIONS] = {
    {MANI_TRAIN_CKPT_TAG(1), 16}, /* info */
    {MANI_TRAIN_CKPT_TAG(2), 16}, /* every network's parameters */
    {MANI_TRAIN_CKPT_TAG(3), 16}, /* the latent values */
    {MANI_TRAIN_CKPT_TAG(4), 16}, /* the running stage's moments: m, v, max v */
};

static void mani_TrainCheckpointLayout(const maniLearnedTrainer* t, mcore_Layout* layout) {
    const uint64_t moments = t->stageBlock != NULL ? 12u * (uint64_t)t->stageCount : 0u;
    const uint64_t sizes[MANI_TRAIN_CKPT_SECTIONS] = {MANI_TRAIN_CKPT_INFO_SIZE, 4u * (uint64_t)t->paramCount,
                                                      4u * (uint64_t)t->frames * t->latent, moments};
    (void)mcore_LayoutSections(layout, maniTrainCheckpointSections, sizes, MANI_TRAIN_CKPT_SECTIONS, UINT64_MAX);
}

maniResult maniLearnedTrainer_SaveCheckpoint(const maniLearnedTrainer* t, void* bytesOut, size_t capacity,
                                             size_t* sizeOut) {
    if (t == NULL || (bytesOut == NULL && capacity > 0)) return mani_errorInvalid;
    maniResult entered = mani_TrainEnter(t, 0);
    if (entered != mani_success) return entered;
    mcore_Layout layout;
    mani_TrainCheckpointLayout(t, &layout);
    if (sizeOut != NULL) *sizeOut = (size_t)layout.totalSize;
    if (capacity < layout.totalSize) {
        if (capacity > 0) memset(bytesOut, 0, capacity);
        return mani_errorCapacity;
    }
    uint8_t* b = (uint8_t*)bytesOut;
    memset(b, 0, (size_t)layout.totalSize);
    const mcore_Section* sec = layout.sections;
    uint8_t* info = b + sec[0].offset;
    mcore_WriteU64(info, t->signature);
    mcore_WriteU32(info + 8, t->stage);
    mcore_WriteU32(info + 12, t->projector);
    mcore_WriteU64(info + 16, t->stageIteration);
    mcore_WriteU64(info + 24, t->rng.state);
    mcore_WriteF32(info + 32, t->learningRate);
    mcore_WriteF32(info + 36, t->beta1Power);
    mcore_WriteF32(info + 40, t->beta2Power);
    mcore_WriteU32(info + 44, t->stageBlock != NULL ? 1u : 0u);
    mcore_WriteU64(info + 48, (uint64_t)t->paramCount);
    mcore_WriteU64(info + 56, t->stageBlock != NULL ? (uint64_t)t->stageCount : 0u);
    for (size_t i = 0; i < t->paramCount; ++i) mcore_WriteF32(b + sec[1].offset + 4u * i, t->params[i]);
    const size_t zc = (size_t)t->frames * t->latent;
    for (size_t i = 0; i < zc; ++i) mcore_WriteF32(b + sec[2].offset + 4u * i, t->z[i]);
    if (t->stageBlock != NULL)
        for (size_t i = 0; i < 3u * t->stageCount; ++i) mcore_WriteF32(b + sec[3].offset + 4u * i, t->moments[i]);
    mcore_FinishContainer(b, &layout, mcore_kindCheckpoint, mcore_formatLearnedCheckpointLatest, MANI_ABI_VERSION);
    return mani_success;
}

/* The first of n floats below 0 (a second moment or its maximum: a trainer
 * never writes one; NaN and infinities it may write, and they are taken). */
static uint64_t mani_TrainFirstNegative(const uint8_t* b, uint64_t at, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
        if (mcore_ReadF32(b + at + 4u * i) < 0.0f) return at + 4u * i;
    return UINT64_MAX;
}

maniFileResult maniLearnedTrainer_RestoreCheckpoint(maniLearnedTrainer* t, const void* bytes, size_t size) {
    if (t == NULL || bytes == NULL) return mani_FileResult(mani_errorInvalid, 0);
    maniResult entered = mani_TrainEnter(t, 1);
    if (entered != mani_success) return mani_FileResult(entered, 0);
    mcore_Container c;
    const maniFileResult opened = mani_OpenContainer(bytes, size, mcore_kindCheckpoint, mcore_formatLearnedCheckpointLatest,
                                                     maniTrainCheckpointSections, MANI_TRAIN_CKPT_SECTIONS, &c);
    if (opened.result != mani_success) return opened;
    const uint8_t* b = c.bytes;
    if (mcore_ReadU32(b + 12) != MANI_ABI_VERSION) return mani_FileResult(mani_errorVersion, 12);
    const mcore_Section* sec = c.sections;
    if (sec[0].size != MANI_TRAIN_CKPT_INFO_SIZE) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(0));
    const uint64_t info = sec[0].offset;
    if (mcore_ReadU64(b + info) != t->signature) return mani_FileResult(mani_errorFormat, info);
    const uint32_t stage = mcore_ReadU32(b + info + 8), projector = mcore_ReadU32(b + info + 12);
    if (stage > MANI_TRAIN_STAGE_DONE) return mani_FileResult(mani_errorFormat, info + 8);
    if (stage == MANI_TRAIN_STAGE_PROJECTORS ? projector >= t->source.projectorCount
                                             : (stage == MANI_TRAIN_STAGE_DONE ? projector + 1 != t->source.projectorCount
                                                                               : projector != 0))
        return mani_FileResult(mani_errorFormat, info + 12);
    const uint64_t iteration = mcore_ReadU64(b + info + 16);
    if (stage == MANI_TRAIN_STAGE_DONE ? iteration != 0 : iteration >= mani_TrainStageIterations(t, stage))
        return mani_FileResult(mani_errorFormat, info + 16);
    const float lr = mcore_ReadF32(b + info + 32), p1 = mcore_ReadF32(b + info + 36), p2 = mcore_ReadF32(b + info + 40);
    /* Only what a trainer cannot write is refused: a learning rate decayed
     * past binary32's range (inf, or NaN after a 0 factor) is its own. */
    if (lr < 0.0f) return mani_FileResult(mani_errorFormat, info + 32);
    if (!(p1 >= 0.0f && p1 <= 1.0f)) return mani_FileResult(mani_errorFormat, info + 36);
    if (!(p2 >= 0.0f && p2 <= 1.0f)) return mani_FileResult(mani_errorFormat, info + 40);
    const uint32_t held = mcore_ReadU32(b + info + 44);
    if (held > 1u || (held == 1u && stage == MANI_TRAIN_STAGE_DONE)) return mani_FileResult(mani_errorFormat, info + 44);
    if (mcore_ReadU64(b + info + 48) != t->paramCount) return mani_FileResult(mani_errorFormat, info + 48);
    size_t first = 0, count = 0;
    if (stage < MANI_TRAIN_STAGE_DONE) mani_TrainStageRange(t, stage, projector, &first, &count);
    const uint64_t countPad = (count + 15u) & ~(size_t)15u;
    const uint64_t moments = mcore_ReadU64(b + info + 56);
    if (moments != (held ? countPad : 0u)) return mani_FileResult(mani_errorFormat, info + 56);
    if (sec[1].size != 4u * (uint64_t)t->paramCount) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(1));
    if (sec[2].size != 4u * (uint64_t)t->frames * t->latent)
        return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(2));
    if (sec[3].size != 12u * moments) return mani_FileResult(mani_errorFormat, mcore_SectionSizeField(3));
    /* Parameters, latent values and first moments are taken as they are:
     * a run that diverged (inf or NaN) saves them so, and restoring it must
     * go on as it would have (training on gives the same bits). */
    uint64_t bad = UINT64_MAX;
    if (moments > 0) bad = mani_TrainFirstNegative(b, sec[3].offset + 4u * moments, 2u * moments);
    if (bad == UINT64_MAX && moments > 0)
        for (uint64_t i = 0; i < moments; ++i) {
            /* Past the stage's parameters (the padding), nothing but 0. */
            if (i >= count && (mcore_ReadU32(b + sec[3].offset + 4u * i) != 0 ||
                               mcore_ReadU32(b + sec[3].offset + 4u * (moments + i)) != 0 ||
                               mcore_ReadU32(b + sec[3].offset + 4u * (2u * moments + i)) != 0)) {
                bad = sec[3].offset + 4u * i;
                break;
            }
        }
    if (bad != UINT64_MAX) return mani_FileResult(mani_errorFormat, bad);
    /* Checked: the trainer takes it. */
    mani_TrainReleaseStage(t);
    t->stage = stage;
    t->projector = stage == MANI_TRAIN_STAGE_DONE ? projector : projector;
    t->stageIteration = iteration;
    t->rng.state = mcore_ReadU64(b + info + 24);
    t->learningRate = lr;
    t->beta1Power = p1;
    t->beta2Power = p2;
    for (size_t i = 0; i < t->paramCount; ++i) t->params[i] = mcore_ReadF32(b + sec[1].offset + 4u * i);
    const size_t zc = (size_t)t->frames * t->latent;
    for (size_t i = 0; i < zc; ++i) t->z[i] = mcore_ReadF32(b + sec[2].offset + 4u * i);
    t->statsReady = 0;
    if (held) {
        if (!mani_TrainBeginStage(t)) {
            mani_TrainReset(t);
            return mani_FileResult(mani_errorCapacity, 0);
        }
        for (uint64_t i = 0; i < 3u * moments; ++i) t->moments[i] = mcore_ReadF32(b + sec[3].offset + 4u * i);
    }
    return mani_FileResult(mani_success, 0);
}

/* -- The model ----------------------------------------------------------------------------- */

static void mani_TrainNetSource(const maniLearnedTrainer* t, const mani_TrainNet* n, maniLearnedLayerSource* layers,
                                maniLearnedNetworkSource* out) {
    for (uint32_t k = 0; k < n->layers; ++k) {
        layers[k].inputs = n->in[k];
        layers[k].outputs = n->out[k];
        layers[k].weights = t->params + n->first + n->weights[k];
        layers[k].biases = t->params + n->first + n->biases[k];
    }
    out->layers = layers;
    out->layerCount = n->layers;
    out->inputOffsets = n->inOffsets;
    out->inputScales = n->inScales;
    out->outputOffsets = n->outOffsets;
    out->outputScales = n->outScales;
}

maniBuildResult maniBuildLearnedModelFromTrainer(maniBuilder* builder, const maniLearnedTrainer* ct,
                                                 maniLearnedWeights weightFormat) {
    if (builder == NULL || ct == NULL) return mani_TrainResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    maniLearnedTrainer* t = (maniLearnedTrainer*)ct;
    maniResult entered = mani_TrainEnter(t, 0);
    if (entered != mani_success) return mani_TrainResult(entered, maniBuildReasonNone, 0, 0);
    if (t->stage != MANI_TRAIN_STAGE_DONE) return mani_TrainResult(mani_errorInvalid, maniBuildReasonNone, 0, 0);
    if (!t->statsReady) mani_TrainLatentStats(t);
    maniLearnedLayerSource layers[MANI_TRAIN_MAX_NETWORKS][MANI_MAX_LEARNED_LAYERS];
    maniLearnedProjectorSource projectors[MANI_MAX_LEARNED_PROJECTORS];
    maniLearnedModelSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = t->source.skeleton;
    src.database = t->source.database;
    src.stepRate = t->source.database->rate;
    src.latentCount = t->latent;
    src.weightFormat = (uint32_t)weightFormat;
    src.boneScales = t->boneScales;
    src.scaledBones = t->scaled > 0 ? t->scaledBones : NULL;
    src.scaledBoneCount = t->scaled;
    mani_TrainNetSource(t, &t->nets[1], layers[1], &src.decompressor);
    mani_TrainNetSource(t, &t->nets[2], layers[2], &src.stepper);
    for (uint32_t p = 0; p < t->source.projectorCount; ++p) {
        mani_TrainNetSource(t, &t->nets[3 + p], layers[3 + p], &projectors[p].network);
        projectors[p].requiredTags = (uint32_t)t->source.projectors[p].requiredTags;
        projectors[p].excludedTags = (uint32_t)t->source.projectors[p].excludedTags;
    }
    src.projectors = projectors;
    src.projectorCount = t->source.projectorCount;
    src.floatTracks = t->source.floatTracks;
    src.floatTrackCount = t->source.floatTrackCount;
    src.events = t->source.events;
    src.eventCount = t->source.eventCount;
    t->building++;
    const maniBuildResult r = maniBuildLearnedModel(builder, &src);
    t->building--;
    return r;
}
