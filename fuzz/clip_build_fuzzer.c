/* Harness: maniBuildClip on sources made from the input (channels, tracks,
 * events, markers, root motion, timing, any float bits). A source the
 * builder accepts must give a file that opens, whose readers all run, and
 * which maniBuilder_MeasureClip accepts with finite errors; maniCompressClip
 * must compress it within the precision into a file that opens and reads. */
#include <stdio.h>

#include "fuzz/clip_common.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

typedef struct {
    const uint8_t* p;
    size_t n;
} maul_Reader;

static uint8_t maul_Byte(maul_Reader* r) {
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

static float maul_Float(maul_Reader* r) {
    uint8_t kind = maul_Byte(r);
    if (kind < 0xF0) return (float)((int)kind - 120) / 16.0f;
    uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits |= (uint32_t)maul_Byte(r) << (8 * i);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Increasing times mostly, from steps; sometimes raw floats. */
static void maul_Times(maul_Reader* r, float* t, uint32_t n) {
    float at = (float)(maul_Byte(r) % 4) / 8.0f;
    for (uint32_t k = 0; k < n; ++k) {
        uint8_t b = maul_Byte(r);
        if (b >= 0xF8) {
            t[k] = maul_Float(r);
        } else {
            t[k] = at;
            at += (float)(b % 16 + 1) / 32.0f;
        }
    }
}

#define MAUL_MAX_CHANNELS 12
#define MAUL_MAX_KEYS 5
#define MAUL_MAX_TRACKS 3

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maul_Reader in = {data, size};
    const uint32_t bones = maul_Byte(&in) % 9 + 1;
    maniSkeleton skeleton;
    if (!maul_FuzzChainSkeleton(bones, &skeleton)) return 0;
    maniClipSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = &skeleton;
    const uint8_t timing = maul_Byte(&in);
    if (timing >= 0xF0) {
        src.duration = maul_Float(&in);
        src.sampleRate = maul_Float(&in);
        /* Keep the work small: refuse nothing here the builder would accept
         * slowly (at most about 4000 samples). */
        if (isfinite(src.duration) && isfinite(src.sampleRate) && src.duration > 0 && src.sampleRate > 0 &&
            (double)src.duration * src.sampleRate > 4000.0)
            return 0;
    } else {
        src.duration = (float)(timing % 40) / 16.0f;
        src.sampleRate = (float)(maul_Byte(&in) % 60 + 1);
    }
    src.loop = maul_Byte(&in) % 3 == 2 ? 2u : maul_Byte(&in) % 2;
    src.additive = maul_Byte(&in) % 4;
    if (src.additive == 3 && maul_Byte(&in) < 250) src.additive = 0;

    static maniClipSourceChannel ch[MAUL_MAX_CHANNELS];
    static float times[MAUL_MAX_CHANNELS][MAUL_MAX_KEYS];
    static float values[MAUL_MAX_CHANNELS][MAUL_MAX_KEYS * 12];
    src.channelCount = maul_Byte(&in) % (MAUL_MAX_CHANNELS + 1);
    src.channels = ch;
    for (uint32_t k = 0; k < src.channelCount; ++k) {
        ch[k].bone = maul_Byte(&in) % (bones + 1);
        ch[k].path = maul_Byte(&in) % 4 == 3 && maul_Byte(&in) > 240 ? 3u : (uint32_t)(maul_Byte(&in) % 3);
        ch[k].interpolation = maul_Byte(&in) % 3;
        ch[k].keyCount = maul_Byte(&in) % (MAUL_MAX_KEYS + 1);
        maul_Times(&in, times[k], ch[k].keyCount);
        for (uint32_t j = 0; j < ch[k].keyCount * 12; ++j) values[k][j] = maul_Float(&in);
        ch[k].times = times[k];
        ch[k].values = values[k];
    }
    static maniClipSourceFloatTrack ft[MAUL_MAX_TRACKS];
    static maniClipSourceDiscreteTrack dt[MAUL_MAX_TRACKS];
    static maniClipSourceEvent ev[2][MAUL_MAX_TRACKS];
    static float ftimes[MAUL_MAX_TRACKS][MAUL_MAX_KEYS], fvalues[MAUL_MAX_TRACKS][MAUL_MAX_KEYS * 3];
    static float dtimes[MAUL_MAX_TRACKS][MAUL_MAX_KEYS];
    static int32_t dvalues[MAUL_MAX_TRACKS][MAUL_MAX_KEYS];
    static char names[4][MAUL_MAX_TRACKS][4];
    src.floatTrackCount = maul_Byte(&in) % (MAUL_MAX_TRACKS + 1);
    src.floatTracks = ft;
    for (uint32_t k = 0; k < src.floatTrackCount; ++k) {
        for (int j = 0; j < 4; ++j) names[0][k][j] = (char)maul_Byte(&in);
        ft[k].name = names[0][k];
        ft[k].nameLength = maul_Byte(&in) % 5;
        ft[k].interpolation = maul_Byte(&in) % 3;
        ft[k].keyCount = maul_Byte(&in) % (MAUL_MAX_KEYS + 1);
        maul_Times(&in, ftimes[k], ft[k].keyCount);
        for (uint32_t j = 0; j < ft[k].keyCount * 3; ++j) fvalues[k][j] = maul_Float(&in);
        ft[k].times = ftimes[k];
        ft[k].values = fvalues[k];
    }
    src.discreteTrackCount = maul_Byte(&in) % (MAUL_MAX_TRACKS + 1);
    src.discreteTracks = dt;
    for (uint32_t k = 0; k < src.discreteTrackCount; ++k) {
        for (int j = 0; j < 4; ++j) names[1][k][j] = (char)maul_Byte(&in);
        dt[k].name = names[1][k];
        dt[k].nameLength = maul_Byte(&in) % 5;
        dt[k].keyCount = maul_Byte(&in) % (MAUL_MAX_KEYS + 1);
        maul_Times(&in, dtimes[k], dt[k].keyCount);
        for (uint32_t j = 0; j < dt[k].keyCount; ++j) dvalues[k][j] = (int32_t)maul_Byte(&in) - 128;
        dt[k].times = dtimes[k];
        dt[k].values = dvalues[k];
    }
    for (int list = 0; list < 2; ++list) {
        const uint32_t n = maul_Byte(&in) % (MAUL_MAX_TRACKS + 1);
        for (uint32_t k = 0; k < n; ++k) {
            for (int j = 0; j < 4; ++j) names[2 + list][k][j] = (char)maul_Byte(&in);
            ev[list][k].name = names[2 + list][k];
            ev[list][k].nameLength = maul_Byte(&in) % 5;
            ev[list][k].time = maul_Byte(&in) >= 0xF0 ? maul_Float(&in) : (float)(maul_Byte(&in) % 40) / 16.0f;
        }
        if (list == 0) {
            src.events = ev[0];
            src.eventCount = n;
        } else {
            src.markers = ev[1];
            src.markerCount = n;
        }
    }
    maniRootMotionSource root;
    if (maul_Byte(&in) % 2) {
        root.bone = maul_Byte(&in) % (bones + 1);
        root.flags = maul_Byte(&in) % 34;
        src.rootMotion = &root;
    }

    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 0;
    maniBuildResult r = maniBuildClip(b, &src);
    if (r.result == mani_success) {
        size_t fileSize = 0;
        if (maniBuilder_CopyBuilt(b, NULL, 0, &fileSize) != mani_errorCapacity) abort();
        uint8_t* file = (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (fileSize + 15) / 16 * 16);
        if (file == NULL) abort();
        if (maniBuilder_CopyBuilt(b, file, fileSize, &fileSize) != mani_success) abort();
        maniClip c;
        maniFileResult opened = maniOpenClip(file, fileSize, &c);
        if (opened.result != mani_success) {
            fprintf(stderr, "built clip refused at %llu\n", (unsigned long long)opened.offset);
            abort();
        }
        if (maniClip_GetSkeletonIdentity(&c) != maniSkeleton_GetIdentity(&skeleton)) abort();
        maul_ExerciseClip(&c, &skeleton);
        maniClipReport report;
        memset(&report, 0, sizeof report);
        if (maniBuilder_MeasureClip(b, &src, &c, &report) != mani_success) abort();
        if (!(report.maxTranslation >= 0.0f) || !(report.maxRotation <= 3.2f)) abort();
        /* Compressed: within the precision wherever binary64 can measure it
         * (an infinite error marks values past its range), opens, reads. */
        const maniCompressOptions options = maniDefaultCompressOptions();
        maniCompressReport cr;
        memset(&cr, 0, sizeof cr);
        if (maniCompressClip(b, &c, &skeleton, &options, &cr) != mani_success) abort();
        if (isfinite(cr.worstError) && !(cr.worstError <= options.precision)) {
            fprintf(stderr, "worst %g bone %u sample %u\n", cr.worstError, cr.worstBone, cr.worstSample);
            abort();
        }
        size_t packedSize = 0;
        if (maniBuilder_CopyBuilt(b, NULL, 0, &packedSize) != mani_errorCapacity) abort();
        uint8_t* packed = (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (packedSize + 15) / 16 * 16);
        if (packed == NULL) abort();
        if (maniBuilder_CopyBuilt(b, packed, packedSize, &packedSize) != mani_success) abort();
        maniClip cc;
        opened = maniOpenClip(packed, packedSize, &cc);
        if (opened.result != mani_success) {
            fprintf(stderr, "compressed clip refused at %llu\n", (unsigned long long)opened.offset);
            abort();
        }
        if (!maniClip_IsCompressed(&cc)) abort();
        maul_ExerciseClip(&cc, &skeleton);
        free(packed);
        free(file);
    } else if (r.result != mani_errorInvalid && r.result != mani_errorLimit && r.result != mani_errorCapacity) {
        abort();
    }
    maniDestroyBuilder(b);
    return 0;
}
