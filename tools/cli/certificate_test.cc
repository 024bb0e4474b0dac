// maul certify --json and maul diff: a document written from runs reads back
// case by case; two documents differing in one case, one case's presence or
// one suite are told apart by name; texts that are not certificates refused.
#include "tools/cli/certificate.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lib/core/json/json.h"

namespace {

// Runs of two suites, "alpha" (3 cases) and "beta" (2 cases), with hashes
// that can be changed per test.
struct Runs {
  mconf_Run runs[3] = {};
  int passes[3] = {1, 1, 1};
  size_t count = 2;
  explicit Runs(uint64_t change = 0, bool extraCase = false, bool extraSuite = false) {
    runs[0].suite = "alpha";
    runs[1].suite = "beta";
    runs[2].suite = "gamma";
    mconf_Record(&runs[0], "case-0", 0x1111);
    mconf_Record(&runs[0], "case-1", 0x2222 ^ change);
    mconf_Record(&runs[0], "case-2", 0xfedcba9876543210ull);
    mconf_Record(&runs[1], "b.0", 7);
    mconf_Record(&runs[1], "b.1", 8);
    if (extraCase) mconf_Record(&runs[1], "b.2", 9);
    if (extraSuite) {
      mconf_Record(&runs[2], "g", 1);
      count = 3;
    }
  }
  ~Runs() {
    for (auto& r : runs) mconf_RunFree(&r);
  }
  std::string Json() {
    char* buffer = nullptr;
    size_t length = 0;
    FILE* f = open_memstream(&buffer, &length);
    EXPECT_EQ(maul_WriteCertificateJson(f, runs, passes, count, mconf_Certificate(runs, count), "test"), 0);
    fclose(f);
    std::string s(buffer, length);
    free(buffer);
    return s;
  }
};

struct Diff {
  int status;
  std::string out, err;
};

Diff Compare(const std::string& a, const std::string& b) {
  char *ob = nullptr, *eb = nullptr;
  size_t ol = 0, el = 0;
  FILE* o = open_memstream(&ob, &ol);
  FILE* e = open_memstream(&eb, &el);
  Diff d;
  d.status = maul_DiffCertificates(o, e, "A", reinterpret_cast<const uint8_t*>(a.data()), a.size(), "B",
                                   reinterpret_cast<const uint8_t*>(b.data()), b.size());
  fclose(o);
  fclose(e);
  d.out.assign(ob, ol);
  d.err.assign(eb, el);
  free(ob);
  free(eb);
  return d;
}

TEST(Certificate, DocumentHoldsEveryCaseAsHex) {
  Runs r;
  std::string json = r.Json();
  mcore_JsonDoc doc;
  mcore_JsonAllocator libc = {nullptr, nullptr, nullptr};
  ASSERT_EQ(mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(json.data()), json.size(), &libc, &doc).reason,
            mcore_jsonOk)
      << json;
  // suites[0].cases[2] is ["case-2", "fedcba9876543210"].
  uint32_t suites = mcore_JsonFind(&doc, 0, "suites", 6);
  ASSERT_NE(suites, MCORE_JSON_NONE);
  uint32_t alpha = suites + 1;
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, mcore_JsonFind(&doc, alpha, "name", 4), "alpha", 5));
  uint32_t cases = mcore_JsonFind(&doc, alpha, "cases", 5);
  ASSERT_NE(cases, MCORE_JSON_NONE);
  EXPECT_EQ(mcore_JsonAt(&doc, cases)->count, 3u);
  uint32_t c = cases + 1;
  for (int i = 0; i < 2; ++i) c = mcore_JsonAt(&doc, c)->next;
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, c + 1, "case-2", 6));
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, mcore_JsonAt(&doc, c + 1)->next, "fedcba9876543210", 16));
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(mconf_Certificate(r.runs, r.count)));
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, mcore_JsonFind(&doc, 0, "certificate", 11), hex, 16));
  EXPECT_EQ(mcore_JsonAt(&doc, mcore_JsonFind(&doc, 0, "pass", 4))->type, (uint32_t)mcore_jsonTrue);
  mcore_JsonRelease(&doc);
}

TEST(Certificate, SameRunsAgree) {
  Runs a, b;
  Diff d = Compare(a.Json(), b.Json());
  EXPECT_EQ(d.status, 0) << d.out << d.err;
  EXPECT_NE(d.out.find("suite alpha: 3 cases agree"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("result: the same certificate"), std::string::npos) << d.out;
}

TEST(Certificate, OneCaseDiffersByName) {
  Runs a, b(0x40);
  Diff d = Compare(a.Json(), b.Json());
  EXPECT_EQ(d.status, 1);
  EXPECT_NE(d.out.find("suite alpha: 1 differences"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("alpha/case-1 differs: 0000000000002222 0000000000002262"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("suite beta: 2 cases agree"), std::string::npos) << d.out;
  EXPECT_EQ(d.out.find("case-0 differs"), std::string::npos) << d.out;
}

TEST(Certificate, CasesAndSuitesOnlyOneSideHas) {
  Runs a, b(0, true, true);
  Diff d = Compare(a.Json(), b.Json());
  EXPECT_EQ(d.status, 1);
  EXPECT_NE(d.out.find("beta/b.2 only in B"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("suite gamma only in B"), std::string::npos) << d.out;
  Diff back = Compare(b.Json(), a.Json());
  EXPECT_NE(back.out.find("beta/b.2 only in A"), std::string::npos) << back.out;
  EXPECT_NE(back.out.find("suite gamma only in A"), std::string::npos) << back.out;
}

TEST(Certificate, TextsThatAreNoCertificate) {
  Runs a;
  std::string good = a.Json();
  for (const std::string& bad :
       {std::string("not json"), std::string("{\"format\": \"other\"}"),
        std::string("{\"format\": \"maul-certificate\", \"version\": 2}"),
        std::string("{\"format\": \"maul-certificate\", \"version\": 1, \"certificate\": \"12\"}"),
        std::string("{\"format\": \"maul-certificate\", \"version\": 1, \"certificate\": \"0000000000000000\"}"),
        std::string("{\"format\": \"maul-certificate\", \"version\": 1, \"certificate\": \"0000000000000000\", "
                    "\"suites\": [{\"name\": \"s\", \"cases\": [[\"c\", \"xyz\"]]}]}")}) {
    Diff d = Compare(good, bad);
    EXPECT_EQ(d.status, 2) << bad;
    EXPECT_NE(d.err.find("maul diff: B: "), std::string::npos) << d.err;
    Diff e = Compare(bad, good);
    EXPECT_EQ(e.status, 2) << bad;
    EXPECT_NE(e.err.find("maul diff: A: "), std::string::npos) << e.err;
  }
}

}  // namespace
