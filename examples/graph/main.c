/* examples/graph: an animation graph played, saved and rolled back, as a
 * lockstep game does. Imports a glTF character's skeleton and first
 * animation, builds a graph from its JSON text form (two clip nodes of the
 * animation at different speeds blended by two parameters), binds it, and
 * plays an instance at 60 Hz while changing the parameters. Half way it
 * keeps two copies of the instance: one by memcpy of its bytes (an instance
 * holds no pointer into itself) and one saved as bytes and restored into
 * fresh memory, as another machine would receive it. All three then play the
 * same inputs to the end and must give the same pose bit for bit.
 *
 *   graph FILE.gltf
 *
 * Exits 0 when the three poses agree, 1 otherwise. */
#include <maul/anim/build.h>
#include <maul/anim/clip.h>
#include <maul/anim/graph.h>
#include <maul/anim/graphbuild.h>
#include <maul/anim/import.h>
#include <maul/anim/pose.h>
#include <maul/anim/skeleton.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kGraphText[] =
    "{\n"
    "  \"format\": \"maul-anim graph\",\n"
    "  \"version\": 1,\n"
    "  \"parameters\": [\n"
    "    {\"name\": \"slow\", \"type\": \"float\", \"value\": 0.25},\n"
    "    {\"name\": \"fast\", \"type\": \"float\", \"value\": 0.75}\n"
    "  ],\n"
    "  \"clips\": [{\"name\": \"wave\"}],\n"
    "  \"nodes\": [\n"
    "    {\"kind\": \"clip\", \"clip\": \"wave\", \"speed\": 0.5},\n"
    "    {\"kind\": \"clip\", \"clip\": \"wave\"},\n"
    "    {\"kind\": \"blend\", \"inputs\": [0, 1], \"weights\": [\"slow\", \"fast\"]}\n"
    "  ],\n"
    "  \"output\": 2\n"
    "}\n";

/* Memory at an alignment, its size rounded up to it (NULL on failure). */
static void* Aligned(size_t alignment, size_t size) {
    return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment + alignment);
}

static void* ReadFile(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void* p = n >= 0 ? Aligned(MANI_FILE_ALIGNMENT, (size_t)n) : NULL;
    if (p != NULL && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

/* What the builder last built, copied into aligned memory the caller frees. */
static void* TakeBuilt(maniBuilder* b, size_t* size) {
    if (maniBuilder_CopyBuilt(b, NULL, 0, size) != mani_errorCapacity) return NULL;
    void* p = Aligned(MANI_FILE_ALIGNMENT, *size);
    if (p != NULL && maniBuilder_CopyBuilt(b, p, *size, size) != mani_success) {
        free(p);
        p = NULL;
    }
    return p;
}

static int Imported(maniImportResult r, const char* what) {
    if (r.result == mani_success) return 1;
    fprintf(stderr, "%s: %s (reason %u, item %llu)\n", what, maniGetResultName(r.result), r.reason,
            (unsigned long long)r.item);
    return 0;
}

static int SetFloat(maniGraphInstance* g, const maniGraph* graph, const char* name, float value) {
    maniGraphValue v;
    memset(&v, 0, sizeof v);
    v.number = value;
    return maniGraphInstance_SetParameter(g, maniGraph_FindParameter(graph, name, strlen(name)),
                                          maniGraphParameterFloat, v) == mani_success;
}

/* The inputs of frame f, the same for every copy of the instance. */
static int PlayFrame(maniGraphInstance* g, const maniGraph* graph, int f) {
    if (f == 40 && !SetFloat(g, graph, "slow", 0.9f)) return 0;
    if (f == 90 && !SetFloat(g, graph, "fast", 0.1f)) return 0;
    maniRootMove move;
    uint32_t events = 0;
    return maniGraphInstance_Update(g, 1.0f / 60.0f, NULL, 0, &events, &move) == mani_success;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: graph FILE.gltf\n");
        return 2;
    }
    size_t size = 0;
    void* document = ReadFile(argv[1], &size);
    if (document == NULL) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    maniBuilderDef def = maniDefaultBuilderDef();
    maniBuilder* b = NULL;
    if (maniCreateBuilder(&def, &b) != mani_success) return 2;
    maniGltf* gltf = NULL;
    if (!Imported(maniOpenGltf(b, document, size, &gltf), "open")) return 1;
    void* buffers[16] = {NULL};
    for (uint32_t i = 0; i < maniGltf_GetBufferCount(gltf) && i < 16; ++i) {
        size_t length = 0;
        const char* uri = maniGltf_GetBufferUri(gltf, i, &length);
        if (uri == NULL || length == 0) continue;
        char path[1024];
        const char* slash = strrchr(argv[1], '/');
        int folder = slash != NULL ? (int)(slash - argv[1] + 1) : 0;
        snprintf(path, sizeof path, "%.*s%.*s", folder, argv[1], (int)length, uri);
        size_t n = 0;
        buffers[i] = ReadFile(path, &n);
        if (buffers[i] == NULL || !Imported(maniGltf_SupplyBuffer(gltf, i, buffers[i], n), path)) return 1;
    }
    maniGltfOptions options = maniDefaultGltfOptions();
    maniImportClipOptions clipOptions = maniDefaultImportClipOptions();
    size_t skeletonSize = 0, clipSize = 0, graphSize = 0;
    if (!Imported(maniBuildGltfSkeleton(b, gltf, maniGltf_GetSkinSkeleton(gltf, 0), &options), "skeleton")) return 1;
    void* skeletonFile = TakeBuilt(b, &skeletonSize);
    maniSkeleton skeleton;
    if (skeletonFile == NULL || maniOpenSkeleton(skeletonFile, skeletonSize, &skeleton).result != mani_success) return 1;
    uint32_t bound = 0;
    if (!Imported(maniBuildGltfClip(b, gltf, 0, &skeleton, &options, &clipOptions, &bound), "clip")) return 1;
    void* clipFile = TakeBuilt(b, &clipSize);
    maniClip clip;
    if (clipFile == NULL || maniOpenClip(clipFile, clipSize, &clip).result != mani_success) return 1;

    /* The graph from its text: the clip slot "wave" takes the named clip. */
    maniGraphClipSource named = {"wave", 4, &clip, NULL};
    maniGraphNamedAssets assets;
    memset(&assets, 0, sizeof assets);
    assets.skeleton = &skeleton;
    assets.clips = &named;
    assets.clipCount = 1;
    maniBuildResult built = maniBuildGraphJson(b, kGraphText, sizeof kGraphText - 1, &assets);
    if (built.result != mani_success) {
        fprintf(stderr, "graph: %s (reason %u, item %llu, other %llu)\n", maniGetResultName(built.result), built.reason,
                (unsigned long long)built.item, (unsigned long long)built.other);
        return 1;
    }
    void* graphFile = TakeBuilt(b, &graphSize);
    maniGraph graph;
    if (graphFile == NULL || maniOpenGraph(graphFile, graphSize, &graph).result != mani_success) return 1;

    /* Bind it to the clip, then make three instances' memory and one scratch. */
    const maniClip* clips[1] = {&clip};
    maniGraphAssets bindAssets;
    memset(&bindAssets, 0, sizeof bindAssets);
    bindAssets.skeleton = &skeleton;
    bindAssets.clips = clips;
    bindAssets.clipCount = 1;
    size_t bindingSize = maniGraph_GetBindingSize(&graph);
    void* bindingMemory = Aligned(MANI_GRAPH_ALIGNMENT, bindingSize);
    maniGraphBinding* binding = NULL;
    uint32_t unbound = 0;
    maniResult bind = bindingMemory == NULL ? mani_errorCapacity
                                            : maniBindGraph(&graph, &bindAssets, bindingMemory, bindingSize, &binding, &unbound);
    if (bind != mani_success) {
        fprintf(stderr, "bind: %s (unbound clip slot %u)\n", maniGetResultName(bind), unbound);
        return 1;
    }
    size_t instanceSize = maniGraphBinding_GetInstanceSize(binding);
    size_t scratchSize = maniGraphBinding_GetScratchSize(binding);
    void* memory[3];
    for (int i = 0; i < 3; ++i) memory[i] = Aligned(MANI_GRAPH_ALIGNMENT, instanceSize);
    void* scratch = Aligned(MANI_GRAPH_ALIGNMENT, scratchSize);
    maniGraphInstance* instance = NULL;
    if (memory[0] == NULL || memory[1] == NULL || memory[2] == NULL || scratch == NULL ||
        maniInitGraphInstance(binding, memory[0], instanceSize, &instance) != mani_success)
        return 1;

    /* Play to the middle, then copy by memcpy and by save and restore. */
    int frames = 120, middle = 60;
    for (int f = 0; f < middle; ++f)
        if (!PlayFrame(instance, &graph, f)) return 1;
    maniGraphInstance* copied = (maniGraphInstance*)memory[1];
    memcpy(memory[1], memory[0], instanceSize);
    size_t stateSize = 0;
    if (maniGraphInstance_Save(instance, NULL, 0, &stateSize) != mani_errorCapacity) return 1;
    void* state = malloc(stateSize);
    if (state == NULL || maniGraphInstance_Save(instance, state, stateSize, &stateSize) != mani_success) return 1;
    maniGraphInstance* restored = NULL;
    if (maniInitGraphInstance(binding, memory[2], instanceSize, &restored) != mani_success ||
        maniGraphInstance_Restore(restored, state, stateSize).result != mani_success)
        return 1;
    printf("graph: %u nodes, %u parameters; instance %zu bytes, state %zu bytes, scratch %zu bytes\n",
           maniGraph_GetNodeCount(&graph), maniGraph_GetParameterCount(&graph), instanceSize, stateSize, scratchSize);

    maniGraphInstance* all[3] = {instance, copied, restored};
    for (int f = middle; f < frames; ++f)
        for (int i = 0; i < 3; ++i)
            if (!PlayFrame(all[i], &graph, f)) return 1;

    /* The three poses, bone by bone. */
    size_t poseSize = maniSkeleton_GetPoseSize(&skeleton);
    uint32_t bones = maniSkeleton_GetBoneCount(&skeleton);
    maniTransform* locals[3];
    int same = 1;
    for (int i = 0; i < 3; ++i) {
        void* poseMemory = Aligned(MANI_POSE_ALIGNMENT, poseSize);
        maniPose* pose = NULL;
        locals[i] = malloc(sizeof(maniTransform) * bones);
        if (poseMemory == NULL || locals[i] == NULL || maniInitPose(&skeleton, poseMemory, poseSize, &pose) != mani_success ||
            maniGraphInstance_Evaluate(all[i], scratch, scratchSize, pose) != mani_success ||
            maniPose_ReadLocals(pose, 0, bones, locals[i]) != mani_success)
            return 1;
        free(poseMemory);
        if (i > 0 && memcmp(locals[0], locals[i], sizeof(maniTransform) * bones) != 0) same = 0;
    }
    maniGraphNodeView view;
    if (maniGraphInstance_InspectNode(instance, 1, &view) != mani_success) return 1;
    printf("after %d frames: bone 1 turned (%.5f, %.5f, %.5f, %.5f), a clip node's playhead %.4f s\n", frames,
           (double)locals[0][1 < bones ? 1 : 0].rotation.x, (double)locals[0][1 < bones ? 1 : 0].rotation.y,
           (double)locals[0][1 < bones ? 1 : 0].rotation.z, (double)locals[0][1 < bones ? 1 : 0].rotation.w,
           (double)view.playhead);
    printf("memcpy copy and restored state %s the instance played through\n", same ? "give the same bits as" : "DIFFER from");
    for (int i = 0; i < 3; ++i) free(locals[i]);
    for (int i = 0; i < 3; ++i) free(memory[i]);
    free(state);
    free(scratch);
    free(bindingMemory);
    free(graphFile);
    free(clipFile);
    free(skeletonFile);
    maniCloseGltf(gltf);
    for (int i = 0; i < 16; ++i) free(buffers[i]);
    maniDestroyBuilder(b);
    free(document);
    return same ? 0 : 1;
}
