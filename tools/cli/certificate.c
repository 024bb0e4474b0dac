/* maul certify --json and maul diff (tools/cli/certificate.h). */
#include "tools/cli/certificate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/json/json.h"
#include "maul/anim/base.h"
#include "maul/tween/base.h"
#include "tools/cli/import.h"

static void maul_WriteHex(mcore_JsonWriter* w, uint64_t v) {
    char hex[17];
    snprintf(hex, sizeof hex, "%016" PRIx64, v);
    mcore_JsonWriteString(w, hex, 16);
}

static void maul_WriteMember(mcore_JsonWriter* w, const char* key, const char* value) {
    mcore_JsonWriteKey(w, key, strlen(key));
    mcore_JsonWriteString(w, value, strlen(value));
}

int maul_WriteCertificateJson(FILE* out, const mconf_Run* runs, const int* passes, size_t count,
                              uint64_t certificate, const char* backend) {
    mcore_JsonAllocator libc = {NULL, NULL, NULL};
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, NULL, 0, &libc);
    char version[48];
    int all = 1;
    for (size_t i = 0; i < count; ++i) all &= passes[i] != 0;
    mcore_JsonWriteBeginObject(&w);
    maul_WriteMember(&w, "format", "maul-certificate");
    mcore_JsonWriteKey(&w, "version", 7);
    mcore_JsonWriteUint64(&w, 1);
    mcore_JsonWriteKey(&w, "certificate", 11);
    maul_WriteHex(&w, certificate);
    maniVersion a = maniGetVersion();
    snprintf(version, sizeof version, "%u.%u.%u", a.major, a.minor, a.patch);
    maul_WriteMember(&w, "anim", version);
    mtwnVersion t = mtwnGetVersion();
    snprintf(version, sizeof version, "%u.%u.%u", t.major, t.minor, t.patch);
    maul_WriteMember(&w, "tween", version);
    maul_WriteMember(&w, "backend", backend != NULL ? backend : "");
    mcore_JsonWriteKey(&w, "pass", 4);
    mcore_JsonWriteBool(&w, all);
    mcore_JsonWriteKey(&w, "suites", 6);
    mcore_JsonWriteBeginArray(&w);
    for (size_t i = 0; i < count; ++i) {
        mcore_JsonWriteBeginObject(&w);
        maul_WriteMember(&w, "name", runs[i].suite);
        mcore_JsonWriteKey(&w, "pass", 4);
        mcore_JsonWriteBool(&w, passes[i] != 0);
        mcore_JsonWriteKey(&w, "cases", 5);
        mcore_JsonWriteBeginArray(&w);
        for (size_t c = 0; c < runs[i].count; ++c) {
            mcore_JsonWriteBeginArray(&w);
            mcore_JsonWriteString(&w, runs[i].cases[c].name, strlen(runs[i].cases[c].name));
            maul_WriteHex(&w, runs[i].cases[c].hash);
            mcore_JsonWriteEndArray(&w);
        }
        mcore_JsonWriteEndArray(&w);
        mcore_JsonWriteEndObject(&w);
    }
    mcore_JsonWriteEndArray(&w);
    mcore_JsonWriteEndObject(&w);
    int status = 1;
    if (mcore_JsonWriterFinish(&w) == mcore_jsonOk) {
        fwrite(w.buffer, 1, w.length, out);
        status = 0;
    }
    mcore_JsonWriterRelease(&w);
    return status;
}

/* -- Reading a document ----------------------------------------------------- */

typedef struct maul_CertCase {
    const char* name; /* in the document's text (case names hold no escapes) */
    uint32_t nameLength;
    uint64_t hash;
} maul_CertCase;

typedef struct maul_CertSuite {
    const char* name;
    uint32_t nameLength;
    uint32_t caseCount;
    maul_CertCase* cases;
} maul_CertSuite;

typedef struct maul_Cert {
    uint64_t certificate;
    char backend[64];
    uint32_t suiteCount;
    maul_CertSuite* suites;
} maul_Cert;

static void maul_CertFree(maul_Cert* c) {
    for (uint32_t i = 0; i < c->suiteCount; ++i) free(c->suites[i].cases);
    free(c->suites);
    memset(c, 0, sizeof *c);
}

static int maul_ParseHex(const mcore_JsonDoc* doc, uint32_t token, uint64_t* out) {
    char text[16];
    size_t length = 0;
    if (mcore_JsonGetString(doc, token, text, sizeof text, &length) != mcore_jsonOk || length != 16) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < 16; ++i) {
        char ch = text[i];
        uint64_t d = ch >= '0' && ch <= '9' ? (uint64_t)(ch - '0') : ch >= 'a' && ch <= 'f' ? (uint64_t)(ch - 'a' + 10) : 16;
        if (d == 16) return 0;
        v = v << 4 | d;
    }
    *out = v;
    return 1;
}

/* A plain string token's text (no escapes: suite and case names are [A-Za-z0-9._-]). */
static int maul_PlainString(const mcore_JsonDoc* doc, uint32_t token, const char** text, uint32_t* length) {
    const mcore_JsonToken* t = mcore_JsonAt(doc, token);
    if (t == NULL || t->type != mcore_jsonString || t->count != 0) return 0;
    *text = (const char*)doc->text + t->start;
    *length = t->length;
    return 1;
}

/* Parses a document; returns NULL on success or the reason it is refused. */
static const char* maul_CertRead(const uint8_t* text, size_t size, maul_Cert* out, mcore_JsonDoc* doc) {
    memset(out, 0, sizeof *out);
    mcore_JsonAllocator libc = {NULL, NULL, NULL};
    mcore_JsonResult r = mcore_JsonReadAlloc(text, size, &libc, doc);
    if (r.reason != mcore_jsonOk) return "not JSON";
    uint32_t format = mcore_JsonFind(doc, 0, "format", 6);
    if (format == MCORE_JSON_NONE || !mcore_JsonStringEquals(doc, format, "maul-certificate", 16))
        return "not a maul certificate (no \"format\": \"maul-certificate\")";
    uint32_t version = mcore_JsonFind(doc, 0, "version", 7);
    uint64_t v = 0;
    if (version == MCORE_JSON_NONE || mcore_JsonGetUint64(doc, version, &v) != mcore_jsonOk || v != 1)
        return "a certificate version other than 1";
    uint32_t certificate = mcore_JsonFind(doc, 0, "certificate", 11);
    if (certificate == MCORE_JSON_NONE || !maul_ParseHex(doc, certificate, &out->certificate))
        return "no certificate hash";
    uint32_t backend = mcore_JsonFind(doc, 0, "backend", 7);
    size_t length = 0;
    if (backend == MCORE_JSON_NONE ||
        mcore_JsonGetString(doc, backend, out->backend, sizeof out->backend - 1, &length) != mcore_jsonOk)
        length = 0;
    out->backend[length] = 0;
    uint32_t suites = mcore_JsonFind(doc, 0, "suites", 6);
    const mcore_JsonToken* st = mcore_JsonAt(doc, suites);
    if (st == NULL || st->type != mcore_jsonArray) return "no suites array";
    out->suites = (maul_CertSuite*)calloc(st->count ? st->count : 1, sizeof(maul_CertSuite));
    if (out->suites == NULL) return "out of memory";
    uint32_t s = suites + 1;
    for (uint32_t i = 0; i < st->count; ++i, s = mcore_JsonAt(doc, s)->next) {
        maul_CertSuite* suite = &out->suites[out->suiteCount++];
        uint32_t name = mcore_JsonFind(doc, s, "name", 4);
        if (!maul_PlainString(doc, name, &suite->name, &suite->nameLength)) return "a suite without a plain name";
        uint32_t cases = mcore_JsonFind(doc, s, "cases", 5);
        const mcore_JsonToken* ct = mcore_JsonAt(doc, cases);
        if (ct == NULL || ct->type != mcore_jsonArray) return "a suite without a cases array";
        suite->cases = (maul_CertCase*)calloc(ct->count ? ct->count : 1, sizeof(maul_CertCase));
        if (suite->cases == NULL) return "out of memory";
        uint32_t c = cases + 1;
        for (uint32_t k = 0; k < ct->count; ++k, c = mcore_JsonAt(doc, c)->next) {
            const mcore_JsonToken* pair = mcore_JsonAt(doc, c);
            if (pair->type != mcore_jsonArray || pair->count != 2) return "a case that is not [name, hash]";
            maul_CertCase* one = &suite->cases[suite->caseCount++];
            uint32_t nameToken = c + 1;
            if (!maul_PlainString(doc, nameToken, &one->name, &one->nameLength) ||
                !maul_ParseHex(doc, mcore_JsonAt(doc, nameToken)->next, &one->hash))
                return "a case that is not [name, 16 hex digits]";
        }
    }
    return NULL;
}

static const maul_CertSuite* maul_FindSuite(const maul_Cert* c, const char* name, uint32_t length) {
    for (uint32_t i = 0; i < c->suiteCount; ++i)
        if (c->suites[i].nameLength == length && memcmp(c->suites[i].name, name, length) == 0) return &c->suites[i];
    return NULL;
}

static const maul_CertCase* maul_FindCase(const maul_CertSuite* s, const char* name, uint32_t length) {
    for (uint32_t i = 0; i < s->caseCount; ++i)
        if (s->cases[i].nameLength == length && memcmp(s->cases[i].name, name, length) == 0) return &s->cases[i];
    return NULL;
}

/* Lines for one suite present in both; returns how many differences. */
static size_t maul_DiffSuite(FILE* out, const maul_CertSuite* a, const maul_CertSuite* b, const char* nameA,
                             const char* nameB) {
    size_t differences = 0;
    for (uint32_t i = 0; i < a->caseCount; ++i) {
        const maul_CertCase* x = &a->cases[i];
        const maul_CertCase* y = maul_FindCase(b, x->name, x->nameLength);
        if (y == NULL) {
            fprintf(out, "  %.*s/%.*s only in %s\n", (int)a->nameLength, a->name, (int)x->nameLength, x->name, nameA);
            differences++;
        } else if (x->hash != y->hash) {
            fprintf(out, "  %.*s/%.*s differs: %016" PRIx64 " %016" PRIx64 "\n", (int)a->nameLength, a->name,
                    (int)x->nameLength, x->name, x->hash, y->hash);
            differences++;
        }
    }
    for (uint32_t i = 0; i < b->caseCount; ++i) {
        const maul_CertCase* y = &b->cases[i];
        if (maul_FindCase(a, y->name, y->nameLength) == NULL) {
            fprintf(out, "  %.*s/%.*s only in %s\n", (int)b->nameLength, b->name, (int)y->nameLength, y->name, nameB);
            differences++;
        }
    }
    return differences;
}

int maul_DiffCertificates(FILE* out, FILE* err, const char* nameA, const uint8_t* a, size_t aSize,
                          const char* nameB, const uint8_t* b, size_t bSize) {
    maul_Cert ca, cb;
    mcore_JsonDoc da, db;
    memset(&da, 0, sizeof da);
    memset(&db, 0, sizeof db);
    const char* whyA = maul_CertRead(a, aSize, &ca, &da);
    const char* whyB = whyA == NULL ? maul_CertRead(b, bSize, &cb, &db) : NULL;
    if (whyA != NULL || whyB != NULL) {
        fprintf(err, "maul diff: %s: %s\n", whyA != NULL ? nameA : nameB, whyA != NULL ? whyA : whyB);
        maul_CertFree(&ca);
        if (whyA == NULL) maul_CertFree(&cb);
        mcore_JsonRelease(&da);
        mcore_JsonRelease(&db);
        return 2;
    }
    fprintf(out, "%s  certificate %016" PRIx64 "  backend %s\n", nameA, ca.certificate, ca.backend);
    fprintf(out, "%s  certificate %016" PRIx64 "  backend %s\n", nameB, cb.certificate, cb.backend);
    size_t differing = 0, total = 0;
    for (uint32_t i = 0; i < ca.suiteCount; ++i) {
        const maul_CertSuite* x = &ca.suites[i];
        const maul_CertSuite* y = maul_FindSuite(&cb, x->name, x->nameLength);
        if (y == NULL) {
            fprintf(out, "suite %.*s only in %s\n", (int)x->nameLength, x->name, nameA);
            differing++;
            continue;
        }
        char header[160];
        snprintf(header, sizeof header, "suite %.*s", (int)x->nameLength, x->name);
        /* Count first so the suite's heading comes before its lines. */
        FILE* sink = tmpfile();
        size_t n = sink != NULL ? maul_DiffSuite(sink, x, y, nameA, nameB) : 0;
        if (n == 0) {
            fprintf(out, "%s: %u cases agree\n", header, x->caseCount);
        } else {
            fprintf(out, "%s: %zu differences\n", header, n);
            maul_DiffSuite(out, x, y, nameA, nameB);
            differing++;
            total += n;
        }
        if (sink != NULL) fclose(sink);
    }
    for (uint32_t i = 0; i < cb.suiteCount; ++i) {
        const maul_CertSuite* y = &cb.suites[i];
        if (maul_FindSuite(&ca, y->name, y->nameLength) == NULL) {
            fprintf(out, "suite %.*s only in %s\n", (int)y->nameLength, y->name, nameB);
            differing++;
        }
    }
    int same = differing == 0 && ca.certificate == cb.certificate;
    if (same)
        fprintf(out, "result: the same certificate; every suite and case agrees\n");
    else if (differing == 0)
        fprintf(out, "result: the certificates differ though every case agrees (cases or suites in another order)\n");
    else
        fprintf(out, "result: %zu suites differ (%zu case differences)\n", differing, total);
    maul_CertFree(&ca);
    maul_CertFree(&cb);
    mcore_JsonRelease(&da);
    mcore_JsonRelease(&db);
    return same ? 0 : 1;
}

int maul_Diff(FILE* out, int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: maul diff CERT_A.json CERT_B.json (each written by maul certify --json)\n");
        return 2;
    }
    size_t aSize = 0, bSize = 0;
    unsigned char* a = maul_ReadAll(argv[0], &aSize);
    unsigned char* b = a != NULL ? maul_ReadAll(argv[1], &bSize) : NULL;
    if (a == NULL || b == NULL) {
        fprintf(stderr, "maul diff: cannot read %s\n", a == NULL ? argv[0] : argv[1]);
        free(a);
        return 2;
    }
    int status = maul_DiffCertificates(out, stderr, argv[0], a, aSize, argv[1], b, bSize);
    free(a);
    free(b);
    return status;
}
