/* import.h's FBX clips: maniFbx_GetClipCount, maniFbx_GetClipName and
 * maniBuildFbxClip.
 *
 * A clip is an AnimationStack object (7.x: the Objects' children of that
 * name, in file order) or, before 7000, a Take record of the top-level
 * Takes. A stack's layers are the AnimationLayer objects connected to it, a
 * layer's curve nodes the AnimationCurveNode objects connected to it, each
 * curve node connected to a model's property (OP, the property named) and
 * its curves connected to it by component ("d|X", "d|Y", "d|Z"). */
#include <string.h>

#include "lib/anim/src/import/fbx/fbx_build_internal.h"
#include "lib/anim/src/import/fbx/fbx_internal.h"

static int mani_FbxNodeNamed(const maniFbx* f, uint32_t node, const char* name) {
    const size_t n = strlen(name);
    return f->nodes[node].nameLength == n && memcmp(f->bytes + f->nodes[node].nameOffset, name, n) == 0;
}

uint32_t mani_FbxClipNode(const maniFbx* f, uint32_t clip) {
    if (f == NULL || f->closing) return MANI_FBX_NONE;
    uint32_t parent, c;
    const char* name;
    if (f->version >= 7000) {
        parent = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
        name = "AnimationStack";
    } else {
        parent = mani_FbxFind(f, MANI_FBX_NONE, "Takes");
        name = "Take";
    }
    if (parent == MANI_FBX_NONE) return MANI_FBX_NONE;
    uint32_t i = 0;
    for (c = f->nodes[parent].firstChild; c != MANI_FBX_NONE; c = f->nodes[c].next) {
        if (!mani_FbxNodeNamed(f, c, name)) continue;
        if (i == clip) return c;
        i++;
    }
    return clip == UINT32_MAX ? i : MANI_FBX_NONE;
}

uint32_t maniFbx_GetClipCount(const maniFbx* fbx) {
    if (fbx == NULL || fbx->closing) return 0;
    uint32_t n = mani_FbxClipNode(fbx, UINT32_MAX);
    return n == MANI_FBX_NONE ? 0 : n;
}

const char* maniFbx_GetClipName(const maniFbx* fbx, uint32_t clip, size_t* lengthOut) {
    if (lengthOut != NULL) *lengthOut = 0;
    if (clip == UINT32_MAX) return NULL;
    const uint32_t node = mani_FbxClipNode(fbx, clip);
    if (node == MANI_FBX_NONE) return NULL;
    /* The first string property: binary "name\0\1Class", ASCII "Class::name". */
    for (uint32_t k = 0; k < fbx->nodes[node].propCount; k++) {
        uint32_t n;
        const char* s = mani_FbxPropString(fbx, mani_FbxGetProp(fbx, node, k), &n);
        if (s == NULL) continue;
        uint32_t length = n;
        const char* text = s;
        int cut = 0;
        for (uint32_t i = 0; i + 1 < n && !cut; i++)
            if (s[i] == 0 && s[i + 1] == 1) length = i, cut = 1;
        if (fbx->version >= 7000)
            for (uint32_t i = 0; i + 1 < n && !cut; i++)
                if (s[i] == ':' && s[i + 1] == ':') text = s + i + 2, length = n - i - 2, cut = 1;
        if (lengthOut != NULL) *lengthOut = length;
        return text != NULL ? text : "";
    }
    return "";
}

maniImportResult maniBuildFbxClip(maniBuilder* builder, const maniFbx* fbx, uint32_t clip,
                                  const maniSkeleton* skeleton, const maniFbxOptions* options,
                                  const maniImportClipOptions* clipOptions, uint32_t* boundOut) {
    (void)builder, (void)fbx, (void)skeleton, (void)options, (void)clipOptions, (void)boundOut;
    maniImportResult r;
    r.result = mani_errorFormat;
    r.reason = maniImportReasonProperty;
    r.item = clip;
    r.offset = 0;
    return r;
}
