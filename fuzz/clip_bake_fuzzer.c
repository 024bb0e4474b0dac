/* Harness: maniBuildMirroredClip and maniBuildRetargetedClip on fuzzed
 * clips. The input is a clip file; when it opens (as given, or with its
 * identity stamped) its view is bound to the chain skeleton of its bone
 * count (fuzz_skeleton.h) and it is mirrored (bone 1 paired with the last,
 * the plane's axis and a name pair from the input) and retargeted onto a
 * chain of its bone count and onto one of half (bones by name). A build
 * that succeeds must give a clip that opens, is of the skeleton built for,
 * keeps the sample count, and reads back through every clip reader; a
 * mirrored clip is mirrored again. Then the input's bytes are changed after
 * the open (as a host's memory may be damaged) and the builds run again:
 * nothing may read outside the bytes, which sit in a block of exactly their
 * size. */
#include "fuzz/clip_common.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/retargetbuild.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* A built clip: opens, of the skeleton, as many samples; read back. From a
 * clip whose bytes changed after its open (strict 0) the built clip need not
 * open (its names, keys or times may be anything), only be read within its
 * bytes when it does. */
static void maul_CheckBuilt(maniBuilder* b, maniBuildResult r, const maniSkeleton* s, uint32_t samples, int strict,
                            uint8_t** fileOut, size_t* sizeOut, maniClip* clipOut) {
    *fileOut = NULL;
    if (r.result != mani_success) {
        if (r.result != mani_errorInvalid && r.result != mani_errorCapacity) abort();
        return;
    }
    size_t size = 0;
    if (maniBuilder_CopyBuilt(b, NULL, 0, &size) != mani_errorCapacity) abort();
    uint8_t* file = (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (size + 15) / 16 * 16);
    if (file == NULL) return;
    if (maniBuilder_CopyBuilt(b, file, size, &size) != mani_success) abort();
    if (maniOpenClip(file, size, clipOut).result != mani_success) {
        if (strict) abort();
        free(file);
        return;
    }
    if (maniClip_GetSkeletonIdentity(clipOut) != maniSkeleton_GetIdentity(s)) abort();
    if (maniClip_GetSampleCount(clipOut) != samples) abort();
    maul_ExerciseClip(clipOut, s);
    *fileOut = file;
    *sizeOut = size;
}

static void maul_Bake(maniBuilder* b, const maniClip* clip, const maniSkeleton* s, uint32_t axis, int strict) {
    const uint32_t n = maniSkeleton_GetBoneCount(s);
    /* Mirror: bone 1 with the last, the first float track's name with a
     * partner. */
    maniMirrorBonePair pair = {1, n - 1};
    maniMirrorNamePair names = {"fuzz", 4, "fuzz-partner", 12};
    size_t length = 0;
    const char* first = maniClip_GetFloatTrackName(clip, 0, &length);
    if (first != NULL && length > 0 && length <= MANI_MAX_NAME_BYTES && !(length == 12 && memcmp(first, "fuzz-partner", 12) == 0)) {
        names.name = first;
        names.nameLength = length;
    }
    maniMirrorMapSource ms;
    memset(&ms, 0, sizeof ms);
    ms.skeleton = s;
    ms.axis = axis;
    ms.pairs = &pair;
    ms.pairCount = n > 2 ? 1 : 0;
    ms.namePairs = &names;
    ms.namePairCount = 1;
    size_t mapSize = 0;
    uint8_t* mapFile = NULL;
    maniMirrorMap map;
    if (maniBuildMirrorMap(b, &ms).result == mani_success && maniBuilder_CopyBuilt(b, NULL, 0, &mapSize) == mani_errorCapacity) {
        mapFile = (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (mapSize + 15) / 16 * 16);
        if (mapFile != NULL && (maniBuilder_CopyBuilt(b, mapFile, mapSize, &mapSize) != mani_success ||
                                maniOpenMirrorMap(mapFile, mapSize, &map).result != mani_success))
            abort();
    }
    if (mapFile != NULL) {
        maniMirrorClipSource cs = {&map, s, clip};
        uint8_t* once = NULL;
        size_t onceSize = 0;
        maniClip onceClip;
        maul_CheckBuilt(b, maniBuildMirroredClip(b, &cs), s, clip->sampleCount, strict, &once, &onceSize, &onceClip);
        if (once != NULL) {
            cs.clip = &onceClip;
            uint8_t* twice = NULL;
            size_t twiceSize = 0;
            maniClip twiceClip;
            maul_CheckBuilt(b, maniBuildMirroredClip(b, &cs), s, clip->sampleCount, strict, &twice, &twiceSize, &twiceClip);
            free(twice);
        }
        free(once);
    }
    free(mapFile);
    /* Retarget onto the chain of n and of half (bones by name). */
    for (int half = 0; half < 2; ++half) {
        maniSkeleton target;
        const uint32_t m = half ? (n + 1) / 2 : n;
        if (!maul_FuzzChainSkeleton(m, &target)) continue;
        maniRetargetMapSource rs;
        memset(&rs, 0, sizeof rs);
        rs.source = s;
        rs.target = &target;
        rs.matchNames = true;
        uint8_t* rmapFile = NULL;
        maniRetargetMap rmap;
        if (maniBuildRetargetMap(b, &rs).result == mani_success &&
            maniBuilder_CopyBuilt(b, NULL, 0, &mapSize) == mani_errorCapacity) {
            rmapFile = (uint8_t*)aligned_alloc(MANI_FILE_ALIGNMENT, (mapSize + 15) / 16 * 16);
            if (rmapFile != NULL && (maniBuilder_CopyBuilt(b, rmapFile, mapSize, &mapSize) != mani_success ||
                                     maniOpenRetargetMap(rmapFile, mapSize, &rmap).result != mani_success))
                abort();
        }
        if (rmapFile != NULL) {
            maniRetargetClipSource cs = {&rmap, s, &target, clip};
            uint8_t* out = NULL;
            size_t outSize = 0;
            maniClip outClip;
            maul_CheckBuilt(b, maniBuildRetargetedClip(b, &cs), &target, clip->sampleCount, strict, &out, &outSize, &outClip);
            free(out);
        }
        free(rmapFile);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 0;
    for (int stamped = 0; stamped < 2; ++stamped) {
        uint8_t* bytes = maul_FuzzFileCopy(data, size);
        if (bytes == NULL) break;
        if (stamped) {
            if (size < MCORE_HEADER_SIZE) {
                free(bytes);
                break;
            }
            mcore_WriteU64(bytes + 32, mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindClip, bytes + MCORE_HEADER_SIZE,
                                                    size - MCORE_HEADER_SIZE));
        }
        maniClip c;
        maniSkeleton s;
        if (maniOpenClip(bytes, size, &c).result == mani_success && maul_FuzzChainSkeleton(c.boneCount, &s)) {
            c.skeletonIdentity = maniSkeleton_GetIdentity(&s);
            const uint32_t axis = size > 0 ? data[size - 1] % 3u : 0u;
            maul_Bake(b, &c, &s, axis, 1);
            for (size_t i = 64; i < size; i += 7) bytes[i] ^= 0x5A;
            maul_Bake(b, &c, &s, axis, 0);
        }
        free(bytes);
    }
    maniDestroyBuilder(b);
    return 0;
}
