/* maul inspect: a Maul file's container header, its kind's open, counts and an
 * outline (tools/cli/inspect.h). Text for a person, --json for a script: both
 * come from one list of fields, so they never disagree. */
#include "tools/cli/inspect.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/container.h"
#include "lib/core/json/json.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/learned.h"
#include "maul/anim/learnedbuild.h"
#include "maul/anim/match.h"
#include "maul/anim/mirror.h"
#include "maul/anim/morph.h"
#include "maul/anim/ragdoll.h"
#include "maul/anim/retarget.h"
#include "maul/anim/skeleton.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"
#include "maul/anim/spring.h"
#include "tools/cli/import.h"

/* One report, written as text lines or as one JSON object. Fields are
 * key/value pairs; a list (the bone tree, the nodes) is an array of lines. */
typedef struct maul_Report {
    FILE* out;
    int json;
    mcore_JsonWriter w;
    int inList;
} maul_Report;

static void maul_ReportBegin(maul_Report* r, FILE* out, int json, const char* name) {
    r->out = out;
    r->json = json;
    r->inList = 0;
    if (json) {
        mcore_JsonAllocator libc = {NULL, NULL, NULL};
        mcore_JsonWriterInit(&r->w, NULL, 0, &libc);
        mcore_JsonWriteBeginObject(&r->w);
        mcore_JsonWriteKey(&r->w, "file", 4);
        mcore_JsonWriteString(&r->w, name, strlen(name));
    } else {
        fprintf(out, "%s\n", name);
    }
}

static void maul_Key(maul_Report* r, const char* key) { mcore_JsonWriteKey(&r->w, key, strlen(key)); }

static void maul_Text(maul_Report* r, const char* key, const char* value, size_t length) {
    if (r->json) {
        maul_Key(r, key);
        mcore_JsonWriteString(&r->w, value, length);
    } else {
        fprintf(r->out, "  %-18s %.*s\n", key, (int)length, value);
    }
}

static void maul_String(maul_Report* r, const char* key, const char* value) {
    maul_Text(r, key, value, strlen(value));
}

static void maul_Unsigned(maul_Report* r, const char* key, uint64_t value) {
    if (r->json) {
        maul_Key(r, key);
        mcore_JsonWriteUint64(&r->w, value);
    } else {
        fprintf(r->out, "  %-18s %" PRIu64 "\n", key, value);
    }
}

/* Identities are hashes: hex in text, and in JSON too (a 64-bit number does
 * not survive a script's binary64). */
static void maul_Identity(maul_Report* r, const char* key, uint64_t value) {
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, value);
    maul_Text(r, key, hex, 16);
}

static void maul_Float(maul_Report* r, const char* key, float value) {
    if (r->json) {
        maul_Key(r, key);
        mcore_JsonWriteFloat(&r->w, value);
    } else {
        char text[32];
        size_t n = mcore_JsonFormatFloat(value, text);
        fprintf(r->out, "  %-18s %.*s\n", key, (int)n, text);
    }
}

/* A list of outline lines: JSON an array of strings, text indented lines. */
static void maul_ListBegin(maul_Report* r, const char* key) {
    if (r->json) {
        maul_Key(r, key);
        mcore_JsonWriteBeginArray(&r->w);
    } else {
        fprintf(r->out, "  %s:\n", key);
    }
    r->inList = 1;
}

static void maul_ListLine(maul_Report* r, const char* line) {
    if (r->json)
        mcore_JsonWriteString(&r->w, line, strlen(line));
    else
        fprintf(r->out, "    %s\n", line);
}

static void maul_ListEnd(maul_Report* r) {
    if (r->json) mcore_JsonWriteEndArray(&r->w);
    r->inList = 0;
}

static void maul_ReportEnd(maul_Report* r) {
    if (!r->json) return;
    mcore_JsonWriteEndObject(&r->w);
    if (mcore_JsonWriterFinish(&r->w) == mcore_jsonOk) {
        /* The writer ends the document with a new line; the caller separates documents. */
        size_t n = r->w.length;
        if (n > 0 && r->w.buffer[n - 1] == '\n') n--;
        fwrite(r->w.buffer, 1, n, r->out);
    } else {
        fputs("{\"error\":\"out of memory\"}", r->out);
    }
    mcore_JsonWriterRelease(&r->w);
}

/* The open's verdict; returns whether it accepted the bytes. */
static int maul_Verdict(maul_Report* r, maniFileResult result) {
    if (result.result == mani_success) {
        maul_String(r, "open", "accepted");
        return 1;
    }
    maul_String(r, "open", "refused");
    maul_String(r, "result", maniGetResultName(result.result));
    maul_Unsigned(r, "offset", result.offset);
    return 0;
}

static void maul_BoneTree(maul_Report* r, const maniSkeleton* s) {
    uint32_t count = maniSkeleton_GetBoneCount(s);
    maul_ListBegin(r, "bone tree");
    for (uint32_t b = 0; b < count; ++b) {
        uint32_t depth = 0;
        for (uint32_t p = maniSkeleton_GetParent(s, b); p != MANI_NO_BONE && depth < count; p = maniSkeleton_GetParent(s, p))
            depth++;
        size_t length = 0;
        const char* name = maniSkeleton_GetBoneName(s, b, &length);
        char line[512];
        int indent = depth < 32 ? (int)depth * 2 : 64;
        snprintf(line, sizeof line, "%*s%u %.*s", indent, "", b, (int)(length < 400 ? length : 400), name ? name : "");
        maul_ListLine(r, line);
    }
    maul_ListEnd(r);
}

static int maul_InspectSkeleton(maul_Report* r, const void* bytes, size_t size) {
    maniSkeleton s;
    if (!maul_Verdict(r, maniOpenSkeleton(bytes, size, &s))) return 0;
    maul_Unsigned(r, "bones", maniSkeleton_GetBoneCount(&s));
    maul_BoneTree(r, &s);
    return 1;
}

static int maul_InspectClip(maul_Report* r, const void* bytes, size_t size) {
    maniClip c;
    if (!maul_Verdict(r, maniOpenClip(bytes, size, &c))) return 0;
    maul_String(r, "storage", maniClip_IsCompressed(&c) ? "compressed" : "full precision");
    maul_Identity(r, "skeleton", maniClip_GetSkeletonIdentity(&c));
    maul_Float(r, "duration", maniClip_GetDuration(&c));
    maul_Float(r, "sample rate", maniClip_GetSampleRate(&c));
    maul_Unsigned(r, "samples", maniClip_GetSampleCount(&c));
    maul_String(r, "loop", maniClip_GetLoopPolicy(&c) == maniLoopRepeat ? "repeat" : "clamp");
    maul_Unsigned(r, "float tracks", maniClip_GetFloatTrackCount(&c));
    maul_Unsigned(r, "discrete tracks", maniClip_GetDiscreteTrackCount(&c));
    maul_Unsigned(r, "events", maniClip_GetEventCount(&c));
    maul_Unsigned(r, "markers", maniClip_GetMarkerCount(&c));
    maul_Unsigned(r, "cursor bytes", maniClip_GetCursorSize(&c));
    return 1;
}

static int maul_InspectSkin(maul_Report* r, const void* bytes, size_t size) {
    maniSkin s;
    if (!maul_Verdict(r, maniOpenSkin(bytes, size, &s))) return 0;
    maul_Identity(r, "skeleton", maniSkin_GetSkeletonIdentity(&s));
    maul_Unsigned(r, "joints", maniSkin_GetJointCount(&s));
    return 1;
}

static int maul_InspectInfluences(maul_Report* r, const void* bytes, size_t size) {
    maniInfluences v;
    if (!maul_Verdict(r, maniOpenInfluences(bytes, size, &v))) return 0;
    maul_Unsigned(r, "vertices", maniInfluences_GetVertexCount(&v));
    maul_Unsigned(r, "per vertex", maniInfluences_GetPerVertex(&v));
    return 1;
}

static int maul_InspectMorphs(maul_Report* r, const void* bytes, size_t size) {
    maniMorphTargets m;
    if (!maul_Verdict(r, maniOpenMorphTargets(bytes, size, &m))) return 0;
    maul_Unsigned(r, "vertices", maniMorphTargets_GetVertexCount(&m));
    maul_Unsigned(r, "channels", maniMorphTargets_GetChannelCount(&m));
    maul_Unsigned(r, "targets", maniMorphTargets_GetTargetCount(&m));
    maul_Unsigned(r, "attributes", maniMorphTargets_GetAttributeCount(&m));
    return 1;
}

static int maul_InspectMirror(maul_Report* r, const void* bytes, size_t size) {
    maniMirrorMap m;
    if (!maul_Verdict(r, maniOpenMirrorMap(bytes, size, &m))) return 0;
    static const char* const axes[] = {"x", "y", "z"};
    uint32_t axis = (uint32_t)maniMirrorMap_GetAxis(&m);
    maul_Identity(r, "skeleton", maniMirrorMap_GetSkeletonIdentity(&m));
    maul_String(r, "plane axis", axis < 3 ? axes[axis] : "unknown");
    uint32_t unmatched = maniMirrorMap_GetUnmatchedBone(&m);
    if (unmatched == MANI_NO_BONE)
        maul_String(r, "unmatched bone", "none");
    else
        maul_Unsigned(r, "unmatched bone", unmatched);
    return 1;
}

static int maul_InspectRetarget(maul_Report* r, const void* bytes, size_t size) {
    maniRetargetMap m;
    if (!maul_Verdict(r, maniOpenRetargetMap(bytes, size, &m))) return 0;
    maul_Identity(r, "source skeleton", maniRetargetMap_GetSourceIdentity(&m));
    maul_Identity(r, "target skeleton", maniRetargetMap_GetTargetIdentity(&m));
    maul_Unsigned(r, "scratch bytes", maniRetargetMap_GetScratchSize(&m));
    return 1;
}

static int maul_InspectSprings(maul_Report* r, const void* bytes, size_t size) {
    maniSpringSet s;
    if (!maul_Verdict(r, maniOpenSpringSet(bytes, size, &s))) return 0;
    maul_Identity(r, "skeleton", maniSpringSet_GetSkeletonIdentity(&s));
    maul_Unsigned(r, "springs", maniSpringSet_GetSpringCount(&s));
    maul_Unsigned(r, "state bytes", maniSpringSet_GetStateSize(&s));
    return 1;
}

static int maul_InspectRagdoll(maul_Report* r, const void* bytes, size_t size) {
    maniRagdoll d;
    if (!maul_Verdict(r, maniOpenRagdoll(bytes, size, &d))) return 0;
    maul_Identity(r, "skeleton", maniRagdoll_GetSkeletonIdentity(&d));
    maul_Unsigned(r, "bodies", maniRagdoll_GetBodyCount(&d));
    return 1;
}

static int maul_InspectDatabase(maul_Report* r, const void* bytes, size_t size) {
    maniMotionDatabase d;
    if (!maul_Verdict(r, maniOpenMotionDatabase(bytes, size, &d))) return 0;
    maul_Identity(r, "skeleton", maniMotionDatabase_GetSkeletonIdentity(&d));
    maul_Identity(r, "mirror map", maniMotionDatabase_GetMirrorMapIdentity(&d));
    maul_Unsigned(r, "clips", d.clipCount);
    maul_Unsigned(r, "channels", d.channelCount);
    maul_Unsigned(r, "entries", d.entryCount);
    maul_Unsigned(r, "frames", d.frameCount);
    maul_Unsigned(r, "features", d.featureCount);
    maul_Unsigned(r, "tree nodes", d.nodeCount);
    maul_Float(r, "rate", d.rate);
    maul_ListBegin(r, "channel names");
    for (uint32_t c = 0; c < d.channelCount; ++c) {
        size_t length = 0;
        const char* name = maniMotionDatabase_GetChannelName(&d, c, &length);
        char line[512];
        snprintf(line, sizeof line, "%u %.*s", c, (int)(length < 400 ? length : 400), name ? name : "");
        maul_ListLine(r, line);
    }
    maul_ListEnd(r);
    return 1;
}

static int maul_InspectLearned(maul_Report* r, const void* bytes, size_t size) {
    maniLearnedModel m;
    if (!maul_Verdict(r, maniOpenLearnedModel(bytes, size, &m))) return 0;
    maul_Identity(r, "skeleton", maniLearnedModel_GetSkeletonIdentity(&m));
    maul_Identity(r, "database", maniLearnedModel_GetDatabaseIdentity(&m));
    maul_Unsigned(r, "bones", m.boneCount);
    maul_Unsigned(r, "features", m.featureCount);
    maul_Unsigned(r, "latent values", m.latentCount);
    maul_Unsigned(r, "channels", m.channelCount);
    maul_Unsigned(r, "projectors", m.projectorCount);
    maul_Unsigned(r, "float tracks", m.floatTrackCount);
    maul_Unsigned(r, "events", m.eventCount);
    maul_Unsigned(r, "scaled bones", m.scaledBoneCount);
    maul_String(r, "weights", m.weightFormat == maniLearnedWeights16 ? "16-bit" : "binary32");
    maul_Float(r, "step rate", m.stepRate);
    maul_Unsigned(r, "layers", m.layerCount);
    maul_Unsigned(r, "widest layer", m.maxWidth);
    maul_ListBegin(r, "projector tags");
    for (uint32_t p = 0; p < m.projectorCount; ++p) {
        uint32_t required = 0, excluded = 0;
        if (maniLearnedModel_GetProjector(&m, p, &required, &excluded) != mani_success) continue;
        char line[96];
        snprintf(line, sizeof line, "%u required %08x excluded %08x", p, required, excluded);
        maul_ListLine(r, line);
    }
    maul_ListEnd(r);
    return 1;
}

static int maul_InspectGraph(maul_Report* r, const void* bytes, size_t size) {
    maniGraph g;
    if (!maul_Verdict(r, maniOpenGraph(bytes, size, &g))) return 0;
    maul_Identity(r, "skeleton", maniGraph_GetSkeletonIdentity(&g));
    uint32_t nodes = maniGraph_GetNodeCount(&g);
    maul_Unsigned(r, "nodes", nodes);
    maul_Unsigned(r, "output node", maniGraph_GetOutputNode(&g));
    maul_Unsigned(r, "parameters", maniGraph_GetParameterCount(&g));
    maul_Unsigned(r, "clip slots", maniGraph_GetClipCount(&g));
    maul_Unsigned(r, "database slots", maniGraph_GetDatabaseCount(&g));
    maul_Unsigned(r, "model slots", maniGraph_GetModelCount(&g));
    maul_Unsigned(r, "spring set slots", maniGraph_GetSpringSetCount(&g));
    maul_Unsigned(r, "map slots", maniGraph_GetRetargetMapCount(&g));
    maul_ListBegin(r, "node order");
    for (uint32_t n = 0; n < nodes; ++n) {
        char line[512];
        int used = snprintf(line, sizeof line, "%u %s", n, maul_GraphNodeKindName((unsigned)maniGraph_GetNodeKind(&g, n)));
        uint32_t inputs = maniGraph_GetNodeInputCount(&g, n);
        for (uint32_t i = 0; i < inputs && used > 0 && (size_t)used < sizeof line - 16; ++i)
            used += snprintf(line + used, sizeof line - (size_t)used, "%s%u", i == 0 ? " <- " : ", ",
                             maniGraph_GetNodeInput(&g, n, i));
        maul_ListLine(r, line);
    }
    maul_ListEnd(r);
    maul_ListBegin(r, "parameter names");
    for (uint32_t p = 0; p < maniGraph_GetParameterCount(&g); ++p) {
        size_t length = 0;
        const char* name = maniGraph_GetParameterName(&g, p, &length);
        char line[512];
        snprintf(line, sizeof line, "%u %.*s", p, (int)(length < 400 ? length : 400), name ? name : "");
        maul_ListLine(r, line);
    }
    maul_ListEnd(r);
    return 1;
}

int maul_InspectBytes(FILE* out, const char* name, const void* bytes, size_t size, int json) {
    maul_Report r;
    maul_ReportBegin(&r, out, json, name);
    const uint8_t* p = (const uint8_t*)bytes;
    if (size < MCORE_HEADER_SIZE || mcore_ReadU32(p) != MCORE_FILE_MAGIC) {
        maul_String(&r, "kind", "not a Maul file");
        maul_String(&r, "open", "refused");
        maul_String(&r, "reason", size < MCORE_HEADER_SIZE ? "shorter than a container header" : "no MAUL magic");
        maul_ReportEnd(&r);
        return 1;
    }
    uint32_t kind = mcore_ReadU32(p + 4);
    maul_String(&r, "kind", maul_FileKindName(kind));
    maul_Unsigned(&r, "kind number", kind);
    maul_Unsigned(&r, "format", mcore_ReadU32(p + 8));
    maul_Unsigned(&r, "written by ABI", mcore_ReadU32(p + 12));
    maul_Unsigned(&r, "bytes", size);
    maul_Unsigned(&r, "size field", mcore_ReadU64(p + 16));
    maul_Unsigned(&r, "sections", mcore_ReadU32(p + 24));
    maul_Identity(&r, "identity", mcore_ReadU64(p + 32));
    int status;
    switch (kind) {
        case mcore_kindSkeleton: status = maul_InspectSkeleton(&r, bytes, size); break;
        case mcore_kindSkin: status = maul_InspectSkin(&r, bytes, size); break;
        case mcore_kindInfluences: status = maul_InspectInfluences(&r, bytes, size); break;
        case mcore_kindClip: status = maul_InspectClip(&r, bytes, size); break;
        case mcore_kindMorphTargets: status = maul_InspectMorphs(&r, bytes, size); break;
        case mcore_kindGraph: status = maul_InspectGraph(&r, bytes, size); break;
        case mcore_kindMotionDatabase: status = maul_InspectDatabase(&r, bytes, size); break;
        case mcore_kindMirrorMap: status = maul_InspectMirror(&r, bytes, size); break;
        case mcore_kindRetargetMap: status = maul_InspectRetarget(&r, bytes, size); break;
        case mcore_kindSpringSet: status = maul_InspectSprings(&r, bytes, size); break;
        case mcore_kindRagdoll: status = maul_InspectRagdoll(&r, bytes, size); break;
        case mcore_kindLearnedModel: status = maul_InspectLearned(&r, bytes, size); break;
        default:
            /* Saved states and checkpoints are opened against their owner (an instance, a trainer). */
            maul_String(&r, "open", "no opener for this kind in maul inspect");
            maul_ReportEnd(&r);
            return 3;
    }
    maul_ReportEnd(&r);
    return status ? 0 : 1;
}

int maul_Inspect(FILE* out, int argc, char** argv) {
    int json = 0, first = 0, files = 0, status = 0;
    if (argc > 0 && strcmp(argv[0], "--json") == 0) json = 1, first = 1;
    if (argc <= first) {
        fprintf(stderr, "usage: maul inspect [--json] FILE...\n");
        return 2;
    }
    if (json) fputs("[", out);
    for (int i = first; i < argc; ++i) {
        size_t size = 0;
        void* aligned = maul_ReadAllAligned(argv[i], &size);
        if (aligned == NULL) {
            fprintf(stderr, "maul inspect: cannot read %s\n", argv[i]);
            status = 2;
            continue;
        }
        if (json && files > 0) fputs(",\n", out);
        int s = maul_InspectBytes(out, argv[i], aligned, size, json);
        files++;
        free(aligned);
        if (s == 1 && status == 0) status = 1;
    }
    if (json) fputs("]\n", out);
    return status;
}
