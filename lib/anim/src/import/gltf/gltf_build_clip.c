/* maniBuildGltfClip: an animation's channels as a clip source for
 * maniBuildClip, which evaluates STEP, LINEAR and CUBICSPLINE keys (tangents
 * times the key interval, rotations normalized after the Hermite) on the
 * clip options' grid.
 *
 * Float track names: a weights channel gives a track per morph target,
 * "<node's bone name>/<target name>" (the mesh's extras.targetNames entry
 * when it names every target, else the target's index); a
 * KHR_animation_pointer channel to anything but a node gives its pointer as
 * the name of a scalar's track, and "<pointer>/<i>" for component i of a
 * vector's (the JSON pointer of that component); a pointer an earlier
 * channel of the animation already animates is skipped. Pointer channels to
 * a node's translation, rotation, scale or weights are read as those paths. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"
#include "lib/core/quat64.h"

#define MANI_GB_OK mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0)
#define MANI_GB_NOMEM mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0)

maniResult mani_GbCheckClipOptions(const maniImportClipOptions* o, const maniSkeleton* skeleton) {
    if (o->cookie != MANI_IMPORT_CLIP_OPTIONS_COOKIE || o->cookieEnd != MANI_IMPORT_CLIP_OPTIONS_COOKIE)
        return mani_errorInvalid;
    if (o->abiVersion != MANI_ABI_VERSION) return mani_errorVersion;
    if (!isfinite(o->sampleRate) || o->sampleRate < 0.0f) return mani_errorInvalid;
    if (o->loop > (uint32_t)maniLoopRepeat || o->additive > (uint32_t)maniAdditiveFirstFrame) return mani_errorInvalid;
    if (o->reserved != 0) return mani_errorInvalid;
    if (o->rootMotionBone != MANI_NO_BONE) {
        if (o->rootMotionBone >= maniSkeleton_GetBoneCount(skeleton)) return mani_errorInvalid;
        const uint32_t f = o->rootMotionFlags;
        if (f == 0 || f > MANI_ROOT_MOTION_ALL_FLAGS) return mani_errorInvalid;
        if ((f & MANI_ROOT_MOTION_YAW) && (f & MANI_ROOT_MOTION_ROTATION)) return mani_errorInvalid;
    }
    return mani_success;
}

/* Parses "/nodes/<n>/<path>" for a node's T, R, S or weights: 1 with the
 * node and path, 0 for any other pointer; *isNode set for a pointer into
 * /nodes/ at all. */
static int mani_GbNodePointer(const char* p, size_t len, uint32_t nodes, uint32_t* node, uint32_t* path, int* isNode) {
    *isNode = 0;
    if (len < 7 || memcmp(p, "/nodes/", 7) != 0) return 0;
    *isNode = 1;
    size_t i = 7;
    uint64_t n = 0;
    const size_t digits = i;
    while (i < len && p[i] >= '0' && p[i] <= '9') {
        n = n * 10 + (uint64_t)(p[i] - '0');
        if (n > 0xFFFFFFFFull) return 0;
        ++i;
    }
    if (i == digits || (i - digits > 1 && p[digits] == '0') || i >= len || p[i] != '/' || n >= nodes) return 0;
    ++i;
    static const char* const names[4] = {"translation", "rotation", "scale", "weights"};
    for (uint32_t k = 0; k < 4; ++k) {
        size_t nl = strlen(names[k]);
        if (len - i == nl && memcmp(p + i, names[k], nl) == 0) {
            *node = (uint32_t)n;
            *path = k;
            return 1;
        }
    }
    return 0;
}

/* The node whose bone name is the name, or MANI_GB_NONE. */
static uint32_t mani_GbNodeNamed(const maniGltf* g, const char* name, size_t len) {
    for (uint32_t n = 0; n < g->nodeCount; ++n)
        if (g->nodes[n].boneName.length == len && memcmp(g->nodes[n].boneName.text, name, len) == 0) return n;
    return MANI_GB_NONE;
}

/* The bone of the skeleton a node is, or MANI_NO_BONE. */
static uint32_t mani_GbBoneOf(const maniGltf* g, const maniSkeleton* skeleton, uint32_t node) {
    if (node >= g->nodeCount) return MANI_NO_BONE;
    return maniSkeleton_FindBone(skeleton, g->nodes[node].boneName.text, g->nodes[node].boneName.length);
}

/* One bound channel: where its keys go. */
typedef struct mani_GbBound {
    uint32_t channel;    /* the glTF channel */
    uint32_t path;       /* mani_GbPath (pointer paths resolved) */
    uint32_t node;
    uint32_t bone;       /* T/R/S */
    uint32_t components; /* values per key (per element for cubic) */
    uint32_t targets;    /* weights: the mesh's targets */
    mani_GbChannel c;
} mani_GbBound;

/* A root bone's composed transform (fold: the nodes above it; otherwise the
 * first root's placement taken off), split, in the output basis. */
typedef struct mani_GbRootCompose {
    int active;
    double t[3], q[4], s[3];
    double linear[9]; /* the rotation times scale applied to translations */
    int uniform;
} mani_GbRootCompose;

static maniImportResult mani_GbAboveOut(const maniGltf* g, uint32_t node, const mani_GbBasis* basis, mani_GbXf* out) {
    mani_GbIdentity(out);
    uint32_t guard = 0;
    for (uint32_t p = g->nodes[node].parent; p != MANI_GLTF_NONE && guard++ <= g->nodeCount; p = g->nodes[p].parent) {
        mani_GbXf local;
        int isMatrix;
        if (!mani_GbNodeLocal(g, p, &local, &isMatrix))
            return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, p, 0);
        mani_GbMul(&local, out, out);
    }
    mani_GbBasisXf(basis, out, out);
    return MANI_GB_OK;
}

static maniImportResult mani_GbRootTransforms(const maniGltf* g, const maniSkeleton* skeleton,
                                              const mani_GbBasis* basis, int fold, mani_GbRootCompose* roots) {
    const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
    int first = 1;
    mani_GbXf firstInverse;
    mani_GbIdentity(&firstInverse);
    for (uint32_t b = 0; b < bones; ++b) {
        roots[b].active = 0;
        if (maniSkeleton_GetParent(skeleton, b) != MANI_NO_BONE) continue;
        size_t len = 0;
        const char* name = maniSkeleton_GetBoneName(skeleton, b, &len);
        const uint32_t node = name != NULL ? mani_GbNodeNamed(g, name, len) : MANI_GB_NONE;
        if (node == MANI_GB_NONE) continue;
        mani_GbXf above;
        maniImportResult r = mani_GbAboveOut(g, node, basis, &above);
        if (r.result != mani_success) return r;
        if (!fold) {
            if (first) {
                first = 0;
                if (!mani_GbInverse(&above, &firstInverse))
                    return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, node, 0);
                continue;
            }
            mani_GbMul(&firstInverse, &above, &above);
        }
        int identity = 1;
        for (int i = 0; i < 9; ++i) identity &= above.l[i] == ((i % 4) == 0 ? 1.0 : 0.0);
        for (int i = 0; i < 3; ++i) identity &= above.t[i] == 0.0;
        if (identity) continue;
        maniTransform split;
        if (!mani_GbSplit(&above, &split))
            return mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, node, 0);
        mani_GbRootCompose* rc = &roots[b];
        rc->active = 1;
        rc->t[0] = above.t[0], rc->t[1] = above.t[1], rc->t[2] = above.t[2];
        rc->q[0] = split.rotation.x, rc->q[1] = split.rotation.y, rc->q[2] = split.rotation.z,
        rc->q[3] = split.rotation.w;
        rc->s[0] = split.scale.x, rc->s[1] = split.scale.y, rc->s[2] = split.scale.z;
        memcpy(rc->linear, above.l, sizeof rc->linear);
        const double tol = 1e-6 * fabs(rc->s[0]);
        rc->uniform = fabs(rc->s[1] - rc->s[0]) <= tol && fabs(rc->s[2] - rc->s[0]) <= tol;
    }
    return MANI_GB_OK;
}

/* Turns one T/R/S value (or tangent) into the output basis, the root's
 * composed transform applied (a tangent takes no translation). */
static void mani_GbMapValue(const mani_GbBasis* basis, const mani_GbRootCompose* rc, uint32_t path, int tangent,
                            float* v) {
    if (path == mani_GbPathTranslation) {
        const double in[3] = {v[0], v[1], v[2]};
        double o[3];
        mani_GbBasisVector(basis, in, o);
        if (rc != NULL && rc->active) {
            double w[3];
            for (int r = 0; r < 3; ++r)
                w[r] = (rc->linear[r] * o[0] + rc->linear[3 + r] * o[1]) + rc->linear[6 + r] * o[2];
            for (int r = 0; r < 3; ++r) o[r] = tangent ? w[r] : w[r] + rc->t[r];
        }
        v[0] = (float)o[0], v[1] = (float)o[1], v[2] = (float)o[2];
    } else if (path == mani_GbPathRotation) {
        const double in[4] = {v[0], v[1], v[2], v[3]};
        double o[4];
        mani_GbBasisQuat(basis, in, o);
        if (rc != NULL && rc->active) mcore_QuatMul64(rc->q, o, o);
        v[0] = (float)o[0], v[1] = (float)o[1], v[2] = (float)o[2], v[3] = (float)o[3];
    } else {
        const double in[3] = {v[0], v[1], v[2]};
        double o[3];
        mani_GbBasisScale(basis, in, o);
        if (rc != NULL && rc->active) o[0] *= rc->s[0], o[1] *= rc->s[1], o[2] *= rc->s[2];
        v[0] = (float)o[0], v[1] = (float)o[1], v[2] = (float)o[2];
    }
}

/* The clip an import made, built: maniBuildClip on the channels and float
 * tracks with the clip options' loop, additive basis and root motion. 0
 * (nothing built) when the root motion bone has no channel: "Build with the
 * build reason as item for anything else it refuses, such as a root motion
 * bone the animation leaves without a track" (maniBuildGltfClip;
 * maniBuildClip takes a bone without channels as its rest, so the import
 * refuses it here); else 1 with maniBuildClip's result. */
int mani_GbBuildImportedClip(maniBuilder* builder, const maniSkeleton* skeleton, float duration, float rate,
                             const maniImportClipOptions* clipOptions, const maniClipSourceChannel* channels,
                             uint32_t channelCount, const maniClipSourceFloatTrack* floatTracks,
                             uint32_t floatTrackCount, maniBuildResult* builtOut) {
    maniRootMotionSource motion;
    maniClipSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = skeleton;
    src.duration = duration;
    src.sampleRate = rate;
    src.loop = clipOptions->loop;
    src.additive = clipOptions->additive;
    src.channels = channels;
    src.channelCount = channelCount;
    src.floatTracks = floatTracks;
    src.floatTrackCount = floatTrackCount;
    if (clipOptions->rootMotionBone != MANI_NO_BONE) {
        uint32_t tracked = 0;
        for (uint32_t i = 0; i < channelCount && !tracked; ++i) tracked = channels[i].bone == clipOptions->rootMotionBone;
        if (!tracked) return 0;
        motion.bone = clipOptions->rootMotionBone;
        motion.flags = clipOptions->rootMotionFlags;
        src.rootMotion = &motion;
    }
    *builtOut = maniBuildClip(builder, &src);
    return 1;
}

maniImportResult maniBuildGltfClip(maniBuilder* builder, const maniGltf* gltf, uint32_t animation,
                                   const maniSkeleton* skeleton, const maniGltfOptions* options,
                                   const maniImportClipOptions* clipOptions, uint32_t* boundOut) {
    mani_GbBasis basis;
    maniImportResult r = mani_GbEnter(builder, gltf, options, &basis);
    if (r.result != mani_success) return r;
    if (skeleton == NULL || clipOptions == NULL || animation >= maniGltf_GetAnimationCount(gltf))
        return mani_GbMisuse(builder);
    const uint32_t bones = maniSkeleton_GetBoneCount(skeleton);
    if (bones == 0) return mani_GbMisuse(builder);
    maniResult co = mani_GbCheckClipOptions(clipOptions, skeleton);
    if (co != mani_success) {
        builder->misuse++;
        return mani_GbImportResult(co, maniImportReasonNone, 0, 0);
    }
    const maniGltf* g = gltf;
    const uint32_t channels = mani_GbChannelCount(g, animation);

    mani_GbScratch sc;
    mani_GbScratchInit(&sc, builder);
    mani_GbBound* bound = (mani_GbBound*)mani_GbAlloc(&sc, sizeof(mani_GbBound) * (channels ? channels : 1));
    mani_GbRootCompose* roots = (mani_GbRootCompose*)mani_GbAlloc(&sc, sizeof(mani_GbRootCompose) * bones);
    if (bound == NULL || roots == NULL) {
        mani_GbScratchFree(&sc);
        return MANI_GB_NOMEM;
    }
    r = mani_GbRootTransforms(g, skeleton, &basis, options->foldPlacement != 0, roots);
    if (r.result != mani_success) {
        mani_GbScratchFree(&sc);
        return r;
    }

    /* Pass 1: every channel's keys (for the duration and the keys' rate),
     * which channels bind, and the sizes. */
    uint32_t boundCount = 0, sourceChannels = 0, floatTracks = 0;
    size_t keyFloats = 0, valueFloats = 0, maxKeys = 0;
    for (uint32_t c = 0; c < channels; ++c) {
        mani_GbChannel ch;
        if (!mani_GbChannelAt(g, animation, c, &ch)) {
            mani_GbScratchFree(&sc);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, c, 0);
        }
        const mani_GltfAccessor* in = &g->accessors[ch.input];
        if (in->type != mani_gltfScalar) {
            mani_GbScratchFree(&sc);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, c, mani_GltfTokenOffset(g, in->token));
        }
        if (in->count > maxKeys) maxKeys = in->count;
        mani_GbBound b;
        memset(&b, 0, sizeof b);
        b.channel = c;
        b.c = ch;
        b.path = ch.path;
        b.node = ch.node;
        b.bone = MANI_NO_BONE;
        int bind = 0;
        if (ch.path == mani_GbPathPointer) {
            int isNode = 0;
            uint32_t node, path;
            if (mani_GbNodePointer(ch.pointer, ch.pointerLength, g->nodeCount, &node, &path, &isNode)) {
                b.path = path;
                b.node = node;
            } else if (!isNode) {
                /* A pointer an earlier channel of the animation animates
                 * (exporters repeat them; the validator accepts it): the
                 * first is kept, the later skipped. */
                bind = 1;
                for (uint32_t k = 0; k < boundCount && bind; ++k)
                    bind = !(bound[k].path == mani_GbPathPointer && bound[k].c.pointerLength == ch.pointerLength &&
                             memcmp(bound[k].c.pointer, ch.pointer, ch.pointerLength) == 0);
                b.components = mani_GltfTypeComponents(g->accessors[ch.output].type);
            }
        }
        if (b.path <= mani_GbPathScale && b.node != MANI_GLTF_NONE) {
            b.bone = mani_GbBoneOf(g, skeleton, b.node);
            bind = b.bone != MANI_NO_BONE;
            b.components = b.path == mani_GbPathRotation ? 4 : 3;
        } else if (b.path == mani_GbPathWeights && b.node < g->nodeCount) {
            const uint32_t mesh = g->nodes[b.node].mesh;
            b.targets = mesh != MANI_GLTF_NONE ? maniGltf_GetPrimitiveTargetCount(g, mesh, 0) : 0;
            int ours = mani_GbBoneOf(g, skeleton, b.node) != MANI_NO_BONE;
            const uint32_t skin = g->nodes[b.node].skin;
            if (!ours && skin != MANI_GLTF_NONE && g->skins[skin].jointCount > 0)
                ours = mani_GbBoneOf(g, skeleton, g->joints[g->skins[skin].jointStart]) != MANI_NO_BONE;
            bind = ours && b.targets > 0;
            b.components = b.targets;
        }
        if (!bind) continue;
        const mani_GltfAccessor* out = &g->accessors[ch.output];
        const size_t per = (size_t)b.components * (ch.interpolation == maniInterpolationCubicSpline ? 3u : 1u);
        const size_t values = (size_t)out->count * mani_GltfTypeComponents(out->type);
        if ((b.path <= mani_GbPathScale && mani_GltfTypeComponents(out->type) != b.components) ||
            values != per * in->count) {
            mani_GbScratchFree(&sc);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, c, mani_GltfTokenOffset(g, out->token));
        }
        bound[boundCount++] = b;
        keyFloats += in->count;
        valueFloats += values;
        if (b.path <= mani_GbPathScale) {
            sourceChannels++;
        } else {
            floatTracks += b.components;
        }
    }

    /* The memory: keys, values, the source's lists and names. */
    float* times = (float*)mani_GbAlloc(&sc, sizeof(float) * (keyFloats + maxKeys + 1));
    float* values = (float*)mani_GbAlloc(&sc, sizeof(float) * (valueFloats + 1));
    float* split = (float*)mani_GbAlloc(&sc, sizeof(float) * (valueFloats + 1));
    maniClipSourceChannel* sch = (maniClipSourceChannel*)mani_GbAlloc(&sc, sizeof(maniClipSourceChannel) * (sourceChannels + 1));
    maniClipSourceFloatTrack* sft = (maniClipSourceFloatTrack*)mani_GbAlloc(&sc, sizeof(maniClipSourceFloatTrack) * (floatTracks + 1));
    uint32_t* channelOf = (uint32_t*)mani_GbAlloc(&sc, sizeof(uint32_t) * ((size_t)sourceChannels + floatTracks + 1));
    char* names = (char*)mani_GbAlloc(&sc, (size_t)(MANI_MAX_NAME_BYTES + 2) * (floatTracks + 1));
    if (times == NULL || values == NULL || split == NULL || sch == NULL || sft == NULL || channelOf == NULL ||
        names == NULL) {
        mani_GbScratchFree(&sc);
        return MANI_GB_NOMEM;
    }

    /* The duration and the keys' rate over every channel, bound or not. */
    float* scratchKeys = times + keyFloats;
    double duration = 0.0, shortest = 0.0;
    for (uint32_t c = 0; c < channels; ++c) {
        mani_GbChannel ch;
        (void)mani_GbChannelAt(g, animation, c, &ch);
        r = mani_GbReadFloats(g, ch.input, scratchKeys);
        if (r.result != mani_success) {
            mani_GbScratchFree(&sc);
            return r;
        }
        const uint32_t k = g->accessors[ch.input].count;
        if (isfinite(scratchKeys[k - 1]) && scratchKeys[k - 1] > duration) duration = scratchKeys[k - 1];
        for (uint32_t i = 1; i < k; ++i) {
            const double d = (double)scratchKeys[i] - (double)scratchKeys[i - 1];
            if (d > 0.0 && isfinite(d) && (shortest == 0.0 || d < shortest)) shortest = d;
        }
    }
    double rate = clipOptions->sampleRate;
    if (rate == 0.0) {
        if (shortest == 0.0) {
            rate = 30.0;
        } else {
            rate = floor(1.0 / shortest + 0.5);
            if (rate < 1.0) rate = 1.0;
            if (rate > 240.0) rate = 240.0;
        }
    }

    /* Pass 2: read and map. */
    size_t tAt = 0, vAt = 0, sAt = 0;
    uint32_t nc = 0, nf = 0;
    for (uint32_t i = 0; i < boundCount; ++i) {
        const mani_GbBound* b = &bound[i];
        const uint32_t keys = g->accessors[b->c.input].count;
        float* kt = times + tAt;
        float* kv = values + vAt;
        r = mani_GbReadFloats(g, b->c.input, kt);
        if (r.result == mani_success) r = mani_GbReadFloats(g, b->c.output, kv);
        if (r.result != mani_success) {
            mani_GbScratchFree(&sc);
            return r;
        }
        tAt += keys;
        const int cubic = b->c.interpolation == maniInterpolationCubicSpline;
        const size_t per = (size_t)b->components * (cubic ? 3u : 1u);
        vAt += per * keys;
        if (b->path <= mani_GbPathScale) {
            const mani_GbRootCompose* rc = roots[b->bone].active ? &roots[b->bone] : NULL;
            for (size_t e = 0; e < (cubic ? 3u : 1u) * (size_t)keys; ++e) {
                const int tangent = cubic && (e % 3) != 1;
                mani_GbMapValue(&basis, rc, b->path, tangent, kv + (size_t)b->components * e);
            }
            if (b->path != mani_GbPathTranslation && rc != NULL && !rc->uniform) {
                /* A turned non-uniform scale above an animated rotation or
                 * scale does not stay a T R S. */
                /* b points into the scratch: the result is made before it is freed. */
                const maniImportResult refused =
                    mani_GbImportResult(mani_errorFormat, maniImportReasonMatrix, b->node, 0);
                mani_GbScratchFree(&sc);
                return refused;
            }
            maniClipSourceChannel* s = &sch[nc];
            s->bone = b->bone;
            s->path = b->path;
            s->interpolation = b->c.interpolation;
            s->keyCount = keys;
            s->times = kt;
            s->values = kv;
            channelOf[nc++] = b->channel;
            continue;
        }
        /* Float tracks: one per component (weights: per target), the values
         * split out (cubic: in-tangent, value, out-tangent per key). */
        const uint32_t comps = b->components;
        for (uint32_t k = 0; k < comps; ++k) {
            float* dst = split + sAt;
            const size_t elements = (cubic ? 3u : 1u) * (size_t)keys;
            for (size_t e = 0; e < elements; ++e) dst[e] = kv[e * comps + k];
            sAt += elements;
            char* name = names + (size_t)(MANI_MAX_NAME_BYTES + 2) * nf;
            const size_t cap = MANI_MAX_NAME_BYTES + 1;
            size_t len = 0;
            if (b->path == mani_GbPathWeights) {
                const uint32_t mesh = g->nodes[b->node].mesh;
                const mani_GltfString* bn = &g->nodes[b->node].boneName;
                char tn[MANI_MAX_NAME_BYTES + 1];
                size_t tl = 0;
                const char* t = mani_GbTargetName(g, mesh, b->targets, k, tn, sizeof tn, &tl);
                char idx[12];
                if (t == NULL) {
                    tl = (size_t)snprintf(idx, sizeof idx, "%u", k);
                    t = idx;
                }
                len = (size_t)bn->length + 1 + tl;
                if (len <= cap) {
                    memcpy(name, bn->text, bn->length);
                    name[bn->length] = '/';
                    memcpy(name + bn->length + 1, t, tl);
                }
            } else {
                len = b->c.pointerLength;
                char idx[13];
                size_t il = comps > 1 ? (size_t)snprintf(idx, sizeof idx, "/%u", k) : 0;
                if (len + il <= cap) {
                    memcpy(name, b->c.pointer, len);
                    memcpy(name + len, idx, il);
                }
                len += il;
            }
            if (len > MANI_MAX_NAME_BYTES) {
                /* b points into the scratch: the result is made before it is freed. */
                const maniImportResult refused =
                    mani_GbImportResult(mani_errorFormat, maniImportReasonName, b->channel, 0);
                mani_GbScratchFree(&sc);
                return refused;
            }
            for (uint32_t j = 0; j < nf; ++j)
                if (sft[j].nameLength == len && memcmp(sft[j].name, name, len) == 0) {
                    /* b points into the scratch: the result is made before it is freed. */
                    const maniImportResult refused =
                        mani_GbImportResult(mani_errorFormat, maniImportReasonName, b->channel, 0);
                    mani_GbScratchFree(&sc);
                    return refused;
                }
            maniClipSourceFloatTrack* f = &sft[nf];
            f->name = name;
            f->nameLength = len;
            f->interpolation = b->c.interpolation;
            f->keyCount = keys;
            f->times = kt;
            f->values = dst;
            channelOf[sourceChannels + nf] = b->channel;
            nf++;
        }
    }

    maniBuildResult br;
    if (!mani_GbBuildImportedClip(builder, skeleton, (float)duration, (float)rate, clipOptions, sch, nc, sft, nf, &br)) {
        mani_GbScratchFree(&sc);
        return mani_GbImportResult(mani_errorFormat, maniImportReasonBuild, maniBuildReasonRootMotion, 0);
    }
    if (br.result == mani_success) {
        if (boundOut != NULL) *boundOut = boundCount;
        mani_GbScratchFree(&sc);
        return MANI_GB_OK;
    }
    /* Keys the clip builder refuses: Data with the glTF channel. */
    const uint32_t reason = br.reason & 0xFFu;
    if (br.result == mani_errorInvalid &&
        (reason == maniBuildReasonTiming || reason == maniBuildReasonNotFinite || reason == maniBuildReasonCount)) {
        const int track = (br.reason & maniBuildReasonFloatTrack) != 0;
        const uint64_t at = track ? (uint64_t)sourceChannels + br.item : br.item;
        const uint64_t limit = track ? (uint64_t)sourceChannels + nf : nc;
        if (at < limit && !(reason == maniBuildReasonCount && !track && br.other != 0 && br.item < nc &&
                            sch[br.item].keyCount > 0)) {
            const uint32_t c = channelOf[at];
            mani_GbScratchFree(&sc);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonData, c, 0);
        }
    }
    mani_GbScratchFree(&sc);
    return mani_GbFromBuild(br);
}
