/* KHR_draco_mesh_compression for the mesh builders (gltf_build_mesh.c): a
 * primitive's stream decoded by Maul's decoder (lib/anim/src/import/draco),
 * its attributes map checked, and the sets it names read from the stream in
 * the stream's point order, as import.h says. */
#include <string.h>

#include "lib/anim/src/build/builder_internal.h"
#include "lib/anim/src/import/gltf/gltf_build_internal.h"
#include "lib/anim/src/import/gltf/gltf_internal.h"

static void* mani_GbDracoAllocate(void* ctx, size_t size) { return mani_BuilderAlloc((maniBuilder*)ctx, size, 16); }
static void mani_GbDracoRelease(void* ctx, void* p, size_t size) { mani_BuilderFree((maniBuilder*)ctx, p, size); }

/* The extension's attributes map member of that name: its unique id. */
static int mani_GbDracoMember(const maniGltf* g, uint32_t map, const char* name, size_t length, uint32_t* id,
                              uint32_t* token) {
    uint32_t t = mcore_JsonFind(&g->json, map, name, length);
    if (t == MCORE_JSON_NONE) return 0;
    uint64_t v = 0;
    *token = t;
    if (g->json.tokens[t].type != mcore_jsonNumber || mcore_JsonGetUint64(&g->json, t, &v) != mcore_jsonOk ||
        v > 0xFFFFFFFFull)
        return -1;
    *id = (uint32_t)v;
    return 1;
}

/* Whether a glTF component type holds a Draco data type. */
static int mani_GbDracoTypeMatches(uint32_t componentType, uint8_t dataType) {
    switch (componentType) {
    case 5120: return dataType == maniDracoInt8;
    case 5121: return dataType == maniDracoUint8;
    case 5122: return dataType == maniDracoInt16;
    case 5123: return dataType == maniDracoUint16;
    case 5125: return dataType == maniDracoUint32;
    case 5126: return dataType == maniDracoFloat32;
    default: return 0;
    }
}

maniImportResult mani_GbDracoOpen(maniBuilder* builder, const maniGltf* g, uint32_t mesh, uint32_t primitive,
                                  mani_GbDraco* out) {
    memset(out, 0, sizeof *out);
    const mani_GltfPrimitive* p = &g->primitives[g->meshes[mesh].primitiveStart + primitive];
    if (p->dracoToken == MANI_GLTF_NONE) return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
    if (p->dracoView == MANI_GLTF_NONE || p->dracoAttributesToken == MANI_GLTF_NONE)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh,
                                   mani_GltfTokenOffset(g, p->dracoToken));
    /* Every name the map gives is one of the primitive's, with an id. */
    const uint32_t map = p->dracoAttributesToken;
    const uint32_t members = g->json.tokens[map].count;
    uint32_t key = map + 1;
    for (uint32_t i = 0; i < members; ++i) {
        const mcore_JsonToken* k = &g->json.tokens[key];
        const uint32_t value = key + 1;
        const char* name = (const char*)g->json.text + k->start;
        uint64_t v = 0;
        if (k->count != 0 || mani_GbAttribute(g, mesh, primitive, MANI_GB_NONE, name, k->length) == MANI_GB_NONE ||
            g->json.tokens[value].type != mcore_jsonNumber || mcore_JsonGetUint64(&g->json, value, &v) != mcore_jsonOk ||
            v > 0xFFFFFFFFull)
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh, mani_GltfTokenOffset(g, key));
        key = g->json.tokens[value].next;
    }
    const uint8_t* bytes = NULL;
    uint64_t size = 0;
    maniImportResult r = mani_GltfViewBytes(g, p->dracoView, &bytes, &size);
    if (r.result != mani_success) return r;
    maniDracoAllocator al = {mani_GbDracoAllocate, mani_GbDracoRelease, builder};
    size_t off = 0;
    maniDracoStatus st = maniDracoDecode(bytes, (size_t)size, &al, &out->mesh, &off);
    if (st == maniDracoNoMemory) return mani_GbImportResult(mani_errorCapacity, maniImportReasonNone, 0, 0);
    if (st != maniDracoOk)
        return mani_GbImportResult(mani_errorFormat, maniImportReasonData, p->dracoView,
                                   mani_GbViewOffset(g, p->dracoView) + off);
    out->active = 1;
    out->map = map;
    /* Every id in the stream, every accessor matching its attribute. */
    key = map + 1;
    for (uint32_t i = 0; i < members; ++i) {
        const mcore_JsonToken* k = &g->json.tokens[key];
        const uint32_t value = key + 1;
        uint64_t v = 0;
        (void)mcore_JsonGetUint64(&g->json, value, &v);
        const maniDracoAttribute* a = maniDracoFindAttribute(&out->mesh, (uint32_t)v);
        if (a == NULL) {
            mani_GbDracoClose(out);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, mesh, mani_GltfTokenOffset(g, value));
        }
        const uint32_t acc =
            mani_GbAttribute(g, mesh, primitive, MANI_GB_NONE, (const char*)g->json.text + k->start, k->length);
        mani_GbAccessor s;
        if (!mani_GbAccessorShape(g, acc, &s) || s.isMatrix || s.count != out->mesh.pointCount ||
            s.components != a->components || !mani_GbDracoTypeMatches(s.componentType, a->dataType)) {
            mani_GbDracoClose(out);
            return mani_GbImportResult(mani_errorFormat, maniImportReasonProperty, acc, 0);
        }
        key = g->json.tokens[value].next;
    }
    return mani_GbImportResult(mani_success, maniImportReasonNone, 0, 0);
}

void mani_GbDracoClose(mani_GbDraco* d) {
    if (d->active) maniDracoRelease(&d->mesh);
    d->active = 0;
}

/* One component of a point's value as glTF reads it: normalized integers by
 * glTF's formulas, other integers converted. */
static float mani_GbDracoFloat(const maniDracoAttribute* a, const uint8_t* v, int normalized) {
    switch (a->dataType) {
    case maniDracoInt8: {
        const float f = (float)(int8_t)v[0];
        if (!normalized) return f;
        const float n = f / 127.0f;
        return n < -1.0f ? -1.0f : n;
    }
    case maniDracoUint8: return normalized ? (float)v[0] / 255.0f : (float)v[0];
    case maniDracoInt16: {
        int16_t h;
        memcpy(&h, v, 2);
        if (!normalized) return (float)h;
        const float n = (float)h / 32767.0f;
        return n < -1.0f ? -1.0f : n;
    }
    case maniDracoUint16: {
        uint16_t h;
        memcpy(&h, v, 2);
        return normalized ? (float)h / 65535.0f : (float)h;
    }
    case maniDracoUint32: {
        uint32_t u;
        memcpy(&u, v, 4);
        return (float)u;
    }
    default: {
        float f;
        memcpy(&f, v, 4);
        return f;
    }
    }
}

int mani_GbDracoRead(const mani_GbDraco* d, const maniGltf* g, const char* name, size_t length, uint32_t accessor,
                     float* floats, uint32_t* uints) {
    if (!d->active) return 0;
    uint32_t id = 0, token = 0;
    if (mani_GbDracoMember(g, d->map, name, length, &id, &token) != 1) return 0;
    const maniDracoAttribute* a = maniDracoFindAttribute(&d->mesh, id);
    if (a == NULL) return 0;
    mani_GbAccessor s;
    int normalized = mani_GbAccessorShape(g, accessor, &s) ? s.normalized : 0;
    const uint32_t size = a->elementSize / a->components;
    for (uint32_t p = 0; p < d->mesh.pointCount; ++p) {
        const uint8_t* v = a->values + (size_t)a->pointToValue[p] * a->elementSize;
        for (uint32_t c = 0; c < a->components; ++c) {
            const uint8_t* e = v + (size_t)c * size;
            const size_t o = (size_t)p * a->components + c;
            if (floats != NULL) floats[o] = mani_GbDracoFloat(a, e, normalized);
            if (uints != NULL) {
                uint32_t u = 0;
                memcpy(&u, e, size); /* little-endian hosts only, as the rest of the importer */
                uints[o] = u;
            }
        }
    }
    return 1;
}
