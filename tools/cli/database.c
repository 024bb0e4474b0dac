/* maul database (tools/cli/database.h). */
#include "tools/cli/database.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/json/json.h"
#include "maul/anim/build.h"
#include "maul/anim/clip.h"
#include "maul/anim/match.h"
#include "maul/anim/matchbuild.h"
#include "maul/anim/skeleton.h"
#include "tools/cli/files.h"
#include "tools/cli/import.h"

static int maul_DatabaseUsage(void) {
    fprintf(stderr,
            "usage: maul database --skeleton S --out DB CLIP... [--rate HZ] [--bone-left-foot NAME]\n"
            "                     [--bone-right-foot NAME] [--bone-hips NAME] [--trajectory] [--json]\n"
            "  builds a motion database of the clip files CLIP (clips of the skeleton file S,\n"
            "  each whole, sampled at HZ frames per second, default 30) and writes it to DB.\n"
            "  Channels: the left and right feet's positions and velocities and the hips'\n"
            "  velocity (bones by name: LeftFoot, RightFoot, Hips unless given); --trajectory\n"
            "  adds the root's trajectory position and facing 1/3, 2/3 and 1 s ahead.\n"
            "  Exit status: 0 written, 1 a file refused, 2 usage, I/O or memory errors.\n");
    return 2;
}

int maul_Database(FILE* out, int argc, char** argv) {
    const char *skeletonPath = NULL, *outPath = NULL;
    const char* boneNames[3] = {"LeftFoot", "RightFoot", "Hips"};
    const char* boneOptions[3] = {"--bone-left-foot", "--bone-right-foot", "--bone-hips"};
    float rate = 30.0f;
    int json = 0, trajectory = 0, clipCount = 0;
    const char** clipPaths = (const char**)calloc((size_t)argc + 1, sizeof(char*));
    if (clipPaths == NULL) return 2;
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        int hasValue = i + 1 < argc;
        int taken = 0;
        for (int b = 0; b < 3; ++b)
            if (strcmp(a, boneOptions[b]) == 0 && hasValue) {
                boneNames[b] = argv[++i];
                taken = 1;
            }
        if (taken) continue;
        if (strcmp(a, "--skeleton") == 0 && hasValue) {
            skeletonPath = argv[++i];
        } else if (strcmp(a, "--out") == 0 && hasValue) {
            outPath = argv[++i];
        } else if (strcmp(a, "--rate") == 0 && hasValue) {
            char* end = NULL;
            rate = strtof(argv[++i], &end);
            if (end == argv[i] || *end != '\0') {
                free(clipPaths);
                return maul_DatabaseUsage();
            }
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--trajectory") == 0) {
            trajectory = 1;
        } else if (a[0] != '-') {
            clipPaths[clipCount++] = a;
        } else {
            free(clipPaths);
            return maul_DatabaseUsage();
        }
    }
    if (skeletonPath == NULL || outPath == NULL || clipCount == 0) {
        free(clipPaths);
        return maul_DatabaseUsage();
    }

    int status = 2;
    void *skeletonBytes = NULL, *built = NULL;
    void** clipBytes = (void**)calloc((size_t)clipCount, sizeof(void*));
    maniClip* clips = (maniClip*)calloc((size_t)clipCount, sizeof(maniClip));
    maniMatchEntrySource* entries = (maniMatchEntrySource*)calloc((size_t)clipCount, sizeof(maniMatchEntrySource));
    maniBuilder* builder = NULL;
    maniSkeleton skeleton;
    if (clipBytes == NULL || clips == NULL || entries == NULL) goto done;

    if ((status = maul_OpenSkeletonFile("database", skeletonPath, &skeletonBytes, &skeleton)) != 0) goto done;
    status = 2;
    uint32_t bones[3];
    for (int b = 0; b < 3; ++b) {
        bones[b] = maniSkeleton_FindBone(&skeleton, boneNames[b], strlen(boneNames[b]));
        if (bones[b] >= maniSkeleton_GetBoneCount(&skeleton)) {
            fprintf(stderr, "maul database: %s: no bone named %s (%s)\n", skeletonPath, boneNames[b],
                    boneOptions[b]);
            status = 1;
            goto done;
        }
    }
    for (int c = 0; c < clipCount; ++c) {
        if ((status = maul_OpenClipFile("database", clipPaths[c], &clipBytes[c], &clips[c])) != 0) goto done;
        entries[c].clip = (uint32_t)c;
        entries[c].flags = 0;
        entries[c].start = 0.0f;
        entries[c].end = maniClip_GetDuration(&clips[c]);
        entries[c].tags = 0;
        entries[c].costBias = 0.0f;
    }
    status = 2;

    static const float now[1] = {0.0f};
    static const float ahead[3] = {1.0f / 3.0f, 2.0f / 3.0f, 1.0f};
    maniMatchChannelSource channels[7];
    memset(channels, 0, sizeof channels);
    uint32_t channelCount = 0;
    for (int b = 0; b < 2; ++b) {
        channels[channelCount++] = (maniMatchChannelSource){maniMatchChannelBonePosition, bones[b], now, 1, 1.0f,
                                                            NULL, 0};
        channels[channelCount++] = (maniMatchChannelSource){maniMatchChannelBoneVelocity, bones[b], now, 1, 1.0f,
                                                            NULL, 0};
    }
    channels[channelCount++] =
        (maniMatchChannelSource){maniMatchChannelBoneVelocity, bones[2], now, 1, 1.0f, NULL, 0};
    if (trajectory) {
        channels[channelCount++] =
            (maniMatchChannelSource){maniMatchChannelTrajectoryPosition, 0, ahead, 3, 1.0f, NULL, 0};
        channels[channelCount++] =
            (maniMatchChannelSource){maniMatchChannelTrajectoryFacing, 0, ahead, 3, 1.0f, NULL, 0};
    }

    maniMotionDatabaseSource source;
    memset(&source, 0, sizeof source);
    source.skeleton = &skeleton;
    source.clips = clips;
    source.clipCount = (uint32_t)clipCount;
    source.channels = channels;
    source.channelCount = channelCount;
    source.entries = entries;
    source.entryCount = (uint32_t)clipCount;
    source.rate = rate;
    source.upAxis = 1;
    source.forwardAxis = 2;
    source.leafSize = 16;
    source.mirror = NULL;
    maniBuilderDef def = maniDefaultBuilderDef();
    if (maniCreateBuilder(&def, &builder) != mani_success) goto done;
    maniBuildResult r = maniBuildMotionDatabase(builder, &source);
    if (r.result != mani_success) {
        const char* file = skeletonPath;
        if (r.reason == maniBuildReasonJoint && r.item < (uint64_t)clipCount) file = clipPaths[r.item];
        if (r.reason == maniBuildReasonEntry && r.item < (uint64_t)clipCount) file = clipPaths[r.item];
        fprintf(stderr,
                "maul database: %s: the motion database refused: %s, reason %s (%u), item %" PRIu64
                ", other %" PRIu64 "\n",
                file, maniGetResultName(r.result), maul_BuildReasonName(r.reason), r.reason, r.item, r.other);
        status = r.result == mani_errorCapacity ? 2 : 1;
        goto done;
    }
    size_t builtSize = 0;
    if ((built = maul_TakeBuilt(builder, &builtSize)) == NULL) goto done;
    maniMotionDatabase database;
    if (maniOpenMotionDatabase(built, builtSize, &database).result != mani_success) goto done;
    if (maul_WriteFile(outPath, built, builtSize) != 0) {
        fprintf(stderr, "maul database: cannot write %s\n", outPath);
        goto done;
    }
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, maniMotionDatabase_GetIdentity(&database));
    if (json) {
        mcore_JsonAllocator libc = {NULL, NULL, NULL};
        mcore_JsonWriter w;
        mcore_JsonWriterInit(&w, NULL, 0, &libc);
        mcore_JsonWriteBeginObject(&w);
        mcore_JsonWriteKey(&w, "out", 3);
        mcore_JsonWriteString(&w, outPath, strlen(outPath));
        mcore_JsonWriteKey(&w, "frames", 6);
        mcore_JsonWriteUint64(&w, database.frameCount);
        mcore_JsonWriteKey(&w, "features", 8);
        mcore_JsonWriteUint64(&w, database.featureCount);
        mcore_JsonWriteKey(&w, "clips", 5);
        mcore_JsonWriteUint64(&w, database.clipCount);
        mcore_JsonWriteKey(&w, "channels", 8);
        mcore_JsonWriteUint64(&w, database.channelCount);
        mcore_JsonWriteKey(&w, "bytes", 5);
        mcore_JsonWriteUint64(&w, builtSize);
        mcore_JsonWriteKey(&w, "identity", 8);
        mcore_JsonWriteString(&w, hex, 16);
        mcore_JsonWriteEndObject(&w);
        int fin = mcore_JsonWriterFinish(&w) == mcore_jsonOk;
        if (fin) {
            fwrite(w.buffer, 1, w.length, out);
            fputc('\n', out);
        }
        mcore_JsonWriterRelease(&w);
        if (!fin) goto done;
    } else {
        fprintf(out, "database %s  %u frames, %u features, %u clips, %u channels  %zu bytes  identity %s\n", outPath,
                database.frameCount, database.featureCount, database.clipCount, database.channelCount, builtSize,
                hex);
    }
    status = 0;
done:
    maniDestroyBuilder(builder);
    free(built);
    if (clipBytes != NULL)
        for (int c = 0; c < clipCount; ++c) free(clipBytes[c]);
    free(clipBytes);
    free(clips);
    free(entries);
    free(skeletonBytes);
    free(clipPaths);
    return status;
}
