/* Compresses the clips tools/cmu/gltf_to_raw.py converts from
 * ../shared/data/cmu-acl (from the project root) (ACL's CMU regression clips) at ACL's settings
 * (the clips are in centimetres: precision 0.01, shell distance 3) and
 * prints, per clip, the ratio against the raw size ACL reports (40 bytes per
 * bone per sample) and against the full-precision clip file, the worst shell
 * error, the compression time, and ns per pose of maniClip_Sample on the
 * compressed and on the full-precision clip.
 * Usage: cmu_compress FILE.raw... */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/pose.h"
#include "maul/anim/skeleton.h"

static double cmu_Now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void* cmu_Built(maniBuilder* b, size_t* sizeOut) {
    size_t size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, &size) != mani_errorCapacity) return NULL;
    void* p = aligned_alloc(32, (size + 31) / 32 * 32);
    if (p != NULL && maniBuilder_CopyBuilt(b, p, size, &size) != mani_success) {
        free(p);
        return NULL;
    }
    *sizeOut = size;
    return p;
}

/* ns per pose of maniClip_Sample over the clip's duration (seeded times). */
static double cmu_SampleNs(const maniClip* c, const maniSkeleton* s, maniPose* pose) {
    const float d = maniClip_GetDuration(c);
    const int n = 20000;
    double best = 1e30;
    for (int run = 0; run < 5; ++run) {
        uint64_t x = 0x9E3779B97F4A7C15ull;
        const double t0 = cmu_Now();
        for (int i = 0; i < n; ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (maniClip_Sample(c, s, (float)((double)(x >> 11) / 9007199254740992.0 * d), pose) != mani_success)
                return -1;
        }
        const double ns = (cmu_Now() - t0) / n;
        if (ns < best) best = ns;
    }
    return best;
}

static int cmu_One(const char* path) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) return 1;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t* raw = (uint8_t*)malloc((size_t)size);
    if (raw == NULL || fread(raw, 1, (size_t)size, f) != (size_t)size) return 1;
    fclose(f);
    uint32_t bones, n;
    float rate;
    memcpy(&bones, raw + 4, 4);
    memcpy(&n, raw + 8, 4);
    memcpy(&rate, raw + 12, 4);
    const uint8_t* p = raw + 16;
    maniSkeletonSourceBone* sb = (maniSkeletonSourceBone*)calloc(bones, sizeof *sb);
    char* names = (char*)calloc(bones, 16);
    for (uint32_t i = 0; i < bones; ++i) {
        int32_t parent;
        float v[10];
        memcpy(&parent, p, 4);
        memcpy(v, p + 4, 40);
        p += 44;
        sb[i].nameLength = (size_t)snprintf(names + 16 * i, 16, "b%u", i);
        sb[i].name = names + 16 * i;
        sb[i].parent = parent < 0 ? MANI_NO_BONE : (uint32_t)parent;
        sb[i].rest.translation = (maniVec3){v[0], v[1], v[2]};
        sb[i].rest.rotation = (maniQuat){v[3], v[4], v[5], v[6]};
        sb[i].rest.scale = (maniVec3){v[7], v[8], v[9]};
    }
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 1;
    const maniSkeletonSource ss = {sb, bones};
    size_t skSize = 0;
    if (maniBuildSkeleton(b, &ss).result != mani_success) return fprintf(stderr, "%s: skeleton refused\n", path), 1;
    void* skFile = cmu_Built(b, &skSize);
    uint32_t* order = (uint32_t*)calloc(bones, 4);
    uint32_t count = 0;
    maniSkeleton sk;
    if (skFile == NULL || maniOpenSkeleton(skFile, skSize, &sk).result != mani_success ||
        maniBuilder_CopySkeletonOrder(b, order, bones, &count) != mani_success)
        return 1;
    /* One linear channel per bone and path, a key per sample. */
    const float duration = n > 1 ? (float)((double)(n - 1) / rate) : 0.0f;
    float* times = (float*)calloc(n, 4);
    for (uint32_t k = 0; k < n; ++k) times[k] = k + 1 == n ? duration : (float)((double)k / rate);
    maniClipSourceChannel* ch = (maniClipSourceChannel*)calloc(3ull * bones, sizeof *ch);
    for (uint32_t i = 0; i < bones; ++i)
        for (uint32_t q = 0; q < 3; ++q) {
            const uint32_t width = q == 1 ? 4 : 3;
            maniClipSourceChannel* c = &ch[3 * i + q];
            c->bone = order[i];
            c->path = q == 0 ? maniChannelTranslation : q == 1 ? maniChannelRotation : maniChannelScale;
            c->interpolation = maniInterpolationLinear;
            c->keyCount = n;
            c->times = times;
            c->values = (const float*)(const void*)p;
            p += 4ull * width * n;
        }
    maniClipSource cs;
    memset(&cs, 0, sizeof cs);
    cs.skeleton = &sk;
    cs.duration = duration;
    cs.sampleRate = rate;
    cs.channels = ch;
    cs.channelCount = 3 * bones;
    const maniBuildResult built = maniBuildClip(b, &cs);
    if (built.result != mani_success)
        return fprintf(stderr, "%s: clip refused (%d, reason %u, item %llu)\n", path, (int)built.result, built.reason,
                       (unsigned long long)built.item), 1;
    size_t fullSize = 0, packedSize = 0;
    void* full = cmu_Built(b, &fullSize);
    maniClip fc, cc;
    if (full == NULL || maniOpenClip(full, fullSize, &fc).result != mani_success) return 1;
    maniCompressOptions o = maniDefaultCompressOptions();
    o.precision = 0.01f; /* centimetres: ACL's 0.01 cm at 3 cm */
    o.shellDistance = 3.0f;
    maniCompressReport r;
    memset(&r, 0, sizeof r);
    const double t0 = cmu_Now();
    if (maniCompressClip(b, &fc, &sk, &o, &r) != mani_success) return 1;
    const double t1 = cmu_Now();
    void* packed = cmu_Built(b, &packedSize);
    if (packed == NULL || maniOpenClip(packed, packedSize, &cc).result != mani_success) return 1;
    const size_t poseSize = maniSkeleton_GetPoseSize(&sk);
    void* pm = aligned_alloc(32, (poseSize + 31) / 32 * 32);
    maniPose* pose = NULL;
    if (pm == NULL || maniInitPose(&sk, pm, poseSize, &pose) != mani_success) return 1;
    const double rawSize = 40.0 * bones * n;
    const char* name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("%-28s %4u %5u %9.0f %9zu %8zu %7.2f %7.2f %9.3g %8.1f %8.0f %8.0f\n", name, bones, n, rawSize, fullSize,
           packedSize, rawSize / (double)packedSize, r.ratio, r.worstError, (t1 - t0) / 1e6,
           cmu_SampleNs(&cc, &sk, pose), cmu_SampleNs(&fc, &sk, pose));
    maniDestroyBuilder(b);
    return 0;
}

int main(int argc, char** argv) {
    printf("%-28s %4s %5s %9s %9s %8s %7s %7s %9s %8s %8s %8s\n", "clip", "bones", "samp", "raw B", "full B",
           "packed B", "raw:1", "full:1", "worst cm", "ms", "ns/pose", "fullns");
    int status = 0;
    for (int i = 1; i < argc; ++i) status |= cmu_One(argv[i]);
    return status;
}
