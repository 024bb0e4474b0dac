/* Writes the seed corpora of clip_open_fuzzer (clip files built from fixture
 * sources: every loop policy, additive basis, root motion, tracks) and
 * clip_build_fuzzer (seeded byte strings).
 * Run: bazel run //fuzz/seeds:make_clip_seeds -- $PWD/fuzz/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/seeds/seed_file.h"
#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/skeleton_fixtures.h"
#include "lib/core/rng.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_clip_seeds CORPUS_DIR\n");
        return 2;
    }
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/clip_open_fuzzer", argv[1]);
    int status = 0;
    const uint32_t bones[] = {1, 3, 8, 9, 17};
    for (uint32_t c = 0; c < 5; ++c) {
        maniSkeletonSource src = maniFixtureMakeSkeletonSource(4000 + c, bones[c], maniFixtureChain);
        size_t size = 0;
        void* file = maniFixtureBuildSkeleton(&src, &size);
        maniFixtureFreeSkeletonSource(&src);
        maniSkeleton skeleton;
        if (file == NULL || maniOpenSkeleton(file, size, &skeleton).result != mani_success) {
            free(file);
            status = 1;
            continue;
        }
        const uint32_t flags = (c % 2 ? MANI_FIXTURE_CLIP_TRACKS : 0) | (c == 2 || c == 4 ? MANI_FIXTURE_CLIP_ROOT_MOTION : 0);
        const maniAdditiveBasis basis = flags & MANI_FIXTURE_CLIP_ROOT_MOTION ? maniAdditiveNone : (maniAdditiveBasis)(c % 3);
        maniFixtureClip clip;
        maniFixtureMakeClip(&clip, 5000 + c, &skeleton, flags, (maniLoopPolicy)(c % 2), basis);
        clip.source.duration = 0.5f;
        clip.source.sampleRate = 10.0f;
        for (uint32_t k = 0; k < clip.source.eventCount; ++k)
            ((maniClipSourceEvent*)clip.source.events)[k].time *= 0.2f;
        for (uint32_t k = 0; k < clip.source.markerCount; ++k)
            ((maniClipSourceEvent*)clip.source.markers)[k].time *= 0.2f;
        for (uint32_t k = 0; k < clip.source.discreteTrackCount; ++k) {
            maniClipSourceDiscreteTrack* d = (maniClipSourceDiscreteTrack*)&clip.source.discreteTracks[k];
            d->keyCount = 1;
            ((float*)d->times)[0] = 0.25f;
        }
        size_t clipSize = 0;
        void* bytes = maniFixtureBuildClip(&clip.source, &clipSize);
        if (bytes != NULL) {
            char name[64];
            snprintf(name, sizeof name, "bones%u-flags%u", bones[c], flags);
            status |= maul_WriteSeed(dir, name, bytes, clipSize);
            /* Its compressed version, for compressed_clip_open_fuzzer. */
            maniClip full;
            maniBuilderDef def = maniDefaultBuilderDef();
            maniBuilder* b = NULL;
            const maniCompressOptions options = maniDefaultCompressOptions();
            maniCompressReport report;
            memset(&report, 0, sizeof report);
            size_t packedSize = 0;
            if (maniOpenClip(bytes, clipSize, &full).result != mani_success ||
                maniCreateBuilder(&def, &b) != mani_success ||
                maniCompressClip(b, &full, &skeleton, &options, &report) != mani_success ||
                maniBuilder_CopyBuilt(b, NULL, 0, &packedSize) != mani_errorCapacity) {
                status = 1;
            } else {
                void* packed = aligned_alloc(MANI_FILE_ALIGNMENT, (packedSize + 15) / 16 * 16);
                char packedDir[2048];
                snprintf(packedDir, sizeof packedDir, "%s/compressed_clip_open_fuzzer", argv[1]);
                if (packed == NULL || maniBuilder_CopyBuilt(b, packed, packedSize, &packedSize) != mani_success)
                    status = 1;
                else
                    status |= maul_WriteSeed(packedDir, name, packed, packedSize);
                free(packed);
            }
            maniDestroyBuilder(b);
        } else {
            maniBuilderDef def = maniDefaultBuilderDef();
            maniBuilder* b = NULL;
            if (maniCreateBuilder(&def, &b) == mani_success) {
                maniBuildResult r = maniBuildClip(b, &clip.source);
                fprintf(stderr, "seed %u refused: %d reason %u item %llu other %llu\n", c, (int)r.result, r.reason,
                        (unsigned long long)r.item, (unsigned long long)r.other);
                maniDestroyBuilder(b);
            }
            status = 1;
        }
        free(bytes);
        maniFixtureFreeClip(&clip);
        free(file);
    }
    snprintf(dir, sizeof dir, "%s/clip_build_fuzzer", argv[1]);
    mcore_Rng rng;
    mcore_RngSeed(&rng, 6000);
    for (int k = 0; k < 8; ++k) {
        uint8_t bytes[400];
        for (size_t j = 0; j < sizeof bytes; ++j) bytes[j] = (uint8_t)mcore_RngBelow(&rng, 256);
        /* Mostly small, valid-looking values: keys and counts. */
        for (size_t j = 0; j < sizeof bytes; j += 3) bytes[j] = (uint8_t)mcore_RngBelow(&rng, 0xE0);
        char name[32];
        snprintf(name, sizeof name, "random-%d", k);
        status |= maul_WriteSeed(dir, name, bytes, (size_t)(64 + 40 * k));
    }
    return status;
}
