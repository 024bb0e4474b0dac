// lib/core/json probes (issue #16): inputs chosen to break the reader, the
// conversions and the writer, every expectation taken from json.h, RFC 8259
// and ECMAScript's Number::toString / JSON.stringify, never from the code.
// References of our own: exact decimal expansions of binary values (big
// decimal arithmetic below), glibc's printf/strtod (correctly rounded) for
// the shortest-digits oracle, MPFR for correct rounding of long decimals.
#include <gtest/gtest.h>
#include <mpfr.h>
#include <sys/mman.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "lib/core/json/test/json_bits.h"

extern "C" {
#include "lib/core/json/json.h"
}

namespace {


const uint8_t* U(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// ---- big decimal: the exact decimal text of m * 2^e ----

// Little-endian base-10 digits.
using Big = std::vector<int>;

Big BigOf(uint64_t m) {
  Big b;
  do {
    b.push_back(static_cast<int>(m % 10));
    m /= 10;
  } while (m);
  return b;
}
void BigMul(Big* b, int k) {
  int carry = 0;
  for (int& d : *b) {
    const int v = d * k + carry;
    d = v % 10;
    carry = v / 10;
  }
  while (carry) {
    b->push_back(carry % 10);
    carry /= 10;
  }
}
// Exact decimal of m * 2^e, plain positional notation.
std::string Exact(uint64_t m, int e) {
  Big b = BigOf(m);
  int frac = 0;
  if (e >= 0) {
    for (int i = 0; i < e; ++i) BigMul(&b, 2);
  } else {
    for (int i = 0; i < -e; ++i) BigMul(&b, 5);  // m * 5^k / 10^k
    frac = -e;
  }
  while (static_cast<int>(b.size()) <= frac) b.push_back(0);
  std::string s;
  for (size_t i = b.size(); i-- > static_cast<size_t>(frac);) s += static_cast<char>('0' + b[i]);
  if (frac) {
    s += '.';
    for (int i = frac; i-- > 0;) s += static_cast<char>('0' + b[i]);
  }
  return s;
}

// ---- the shortest-digits oracle (glibc printf / strtod, both exact) ----

bool ReadsBackD(uint64_t m, int q, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llue%d", static_cast<unsigned long long>(m), q);
  return Bits(std::strtod(buf, nullptr)) == Bits(v);
}
bool ReadsBackF(uint64_t m, int q, float v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llue%d", static_cast<unsigned long long>(m), q);
  return Bits(std::strtof(buf, nullptr)) == Bits(v);
}

uint64_t Pow10(int p) {
  uint64_t r = 1;
  while (p-- > 0) r *= 10;
  return r;
}

// ECMAScript Number::toString layout of digits s (no trailing zeros) with
// value s * 10^(n - k).
std::string EcmaLayout(bool negative, std::string s, int n) {
  const int k = static_cast<int>(s.size());
  std::string out = negative ? "-" : "";
  if (k <= n && n <= 21) {
    out += s + std::string(n - k, '0');
  } else if (0 < n && n <= 21) {
    out += s.substr(0, n) + "." + s.substr(n);
  } else if (-6 < n && n <= 0) {
    out += "0." + std::string(-n, '0') + s;
  } else {
    const int e = n - 1;
    out += s.substr(0, 1);
    if (k > 1) out += "." + s.substr(1);
    out += e >= 0 ? "e+" : "e-";
    out += std::to_string(e >= 0 ? e : -e);
  }
  return out;
}

// The expected text for a finite value: the fewest digits that read back,
// the nearest of those (printf's correctly rounded digits), ECMAScript layout.
template <typename T>
std::string Expected(T value) {
  const bool isF = sizeof(T) == 4;
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  const bool neg = std::signbit(value);
  const double a = std::fabs(static_cast<double>(value));
  const T av = static_cast<T>(a);
  auto back = [&](uint64_t m, int q) { return isF ? ReadsBackF(m, q, static_cast<float>(av)) : ReadsBackD(m, q, static_cast<double>(av)); };
  for (int p = 1; p <= 17; ++p) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, a);
    uint64_t d = 0;
    const char* c = buf;
    for (; *c && *c != 'e'; ++c)
      if (*c >= '0' && *c <= '9') d = d * 10 + static_cast<uint64_t>(*c - '0');
    const int E = std::atoi(c + 1);
    int q = E - (p - 1);
    uint64_t m = 0;
    int mq = 0;
    bool ok = false;
    if (back(d, q)) {
      m = d, mq = q, ok = true;
    } else {
      const uint64_t lo = d == Pow10(p - 1) ? Pow10(p) - 1 : d - 1;
      const int loq = d == Pow10(p - 1) ? q - 1 : q;
      if (back(lo, loq)) {
        m = lo, mq = loq, ok = true;
      } else if (back(d + 1, q)) {
        m = d + 1, mq = q, ok = true;
      }
    }
    if (ok) {
      while (m % 10 == 0) m /= 10, ++mq;
      const std::string s = std::to_string(m);
      return EcmaLayout(neg, s, static_cast<int>(s.size()) + mq);
    }
  }
  return "?";
}

std::string FormatD(double v) {
  char buf[MCORE_JSON_NUMBER_CHARS + 8];
  std::memset(buf, 0x7E, sizeof buf);
  const size_t n = mcore_JsonFormatDouble(v, buf);
  EXPECT_LE(n, MCORE_JSON_NUMBER_CHARS);
  EXPECT_EQ(buf[MCORE_JSON_NUMBER_CHARS], 0x7E);  // nothing written past the bound
  return std::string(buf, n > MCORE_JSON_NUMBER_CHARS ? MCORE_JSON_NUMBER_CHARS : n);
}
std::string FormatF(float v) {
  char buf[MCORE_JSON_NUMBER_CHARS + 8];
  std::memset(buf, 0x7E, sizeof buf);
  const size_t n = mcore_JsonFormatFloat(v, buf);
  EXPECT_LE(n, MCORE_JSON_NUMBER_CHARS);
  EXPECT_EQ(buf[MCORE_JSON_NUMBER_CHARS], 0x7E);
  return std::string(buf, n > MCORE_JSON_NUMBER_CHARS ? MCORE_JSON_NUMBER_CHARS : n);
}

// ---- MPFR references: one correct rounding, subnormals, overflow ----

// Returns false when the decimal rounds past the largest finite value.
bool MpfrDouble(const std::string& s, double* out) {
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-1073);
  mpfr_set_emax(1024);
  mpfr_t x;
  mpfr_init2(x, 53);
  const int t = mpfr_strtofr(x, s.c_str(), nullptr, 10, MPFR_RNDN);
  mpfr_subnormalize(x, t, MPFR_RNDN);
  const bool fin = !mpfr_inf_p(x);
  *out = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return fin;
}
bool MpfrFloat(const std::string& s, float* out) {
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-148);
  mpfr_set_emax(128);
  mpfr_t x;
  mpfr_init2(x, 24);
  const int t = mpfr_strtofr(x, s.c_str(), nullptr, 10, MPFR_RNDN);
  mpfr_subnormalize(x, t, MPFR_RNDN);
  const bool fin = !mpfr_inf_p(x);
  *out = mpfr_get_flt(x, MPFR_RNDN);
  mpfr_clear(x);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return fin;
}

// A decimal just below s (s a positive decimal whose last digit is not a
// trailing zero of a fraction): the last digit lowered, borrows carried,
// then a run of nines after it.
std::string JustBelow(std::string s, size_t nines) {
  size_t k = s.size();
  while (k-- > 0) {
    if (s[k] == '.') continue;
    if (s[k] > '0') {
      s[k] = static_cast<char>(s[k] - 1);
      break;
    }
    s[k] = '9';
  }
  if (s.size() > 1 && s[0] == '0' && s[1] != '.') s.erase(0, 1);
  if (s.find('.') == std::string::npos) s += ".";
  return s + std::string(nines, '9');
}
// s followed by zeros and a one: just above s.
std::string JustAbove(const std::string& s, size_t zeros) {
  return s + (s.find('.') == std::string::npos ? "." : "") + std::string(zeros, '0') + "1";
}

// An allocator that counts, fails on request and checks release sizes.
struct Counting {
  std::map<void*, size_t> live;
  int calls = 0;
  int failAt = -1;
  bool failAfter = false;
  int badSizes = 0;
  int unknownFrees = 0;
  static void* Alloc(void* user, size_t size) {
    Counting* c = static_cast<Counting*>(user);
    const int n = c->calls++;
    if (n == c->failAt || (c->failAfter && c->failAt >= 0 && n > c->failAt)) return nullptr;
    void* p = std::malloc(size ? size : 1);
    c->live[p] = size;
    return p;
  }
  static void Free(void* user, void* block, size_t size) {
    Counting* c = static_cast<Counting*>(user);
    if (!block) return;
    auto it = c->live.find(block);
    if (it == c->live.end()) {
      ++c->unknownFrees;
      return;
    }
    if (it->second != size) ++c->badSizes;
    c->live.erase(it);
    std::free(block);
  }
};

// ---- reading helpers ----

// A document filled with a byte pattern, to see that a refusal leaves it.
struct Pattern {
  mcore_JsonDoc doc;
  unsigned char copy[sizeof(mcore_JsonDoc)];
  Pattern() {
    std::memset(&doc, 0xA5, sizeof doc);
    std::memcpy(copy, &doc, sizeof doc);
  }
  bool Unchanged() const { return std::memcmp(copy, &doc, sizeof doc) == 0; }
};

// Reads with both entry points; a refusal must leave the document's bytes.
mcore_JsonResult Probe(const std::string& s, const char* what) {
  Pattern p;
  const mcore_JsonResult r = mcore_JsonReadAlloc(U(s), s.size(), nullptr, &p.doc);
  if (r.reason == mcore_jsonOk) {
    mcore_JsonRelease(&p.doc);
  } else {
    EXPECT_TRUE(p.Unchanged()) << "ReadAlloc changed doc on refusal: " << what;
  }
  std::vector<mcore_JsonToken> tokens(s.size() + 2);
  Pattern q;
  const mcore_JsonResult r2 =
      mcore_JsonRead(U(s), s.size(), tokens.data(), static_cast<uint32_t>(tokens.size()), &q.doc);
  EXPECT_EQ(r2.reason, r.reason) << what;
  if (r2.reason != mcore_jsonOk) {
    EXPECT_EQ(r2.offset, r.offset) << what;
    EXPECT_TRUE(q.Unchanged()) << "Read changed doc on refusal: " << what;
  }
  return r;
}

struct Bad {
  std::string text;
  mcore_JsonReason reason;
  size_t offset;
};

void ExpectAll(const std::vector<Bad>& cases) {
  for (const Bad& b : cases) {
    std::string shown;
    for (unsigned char c : b.text) {
      char t[8];
      if (c < 0x20 || c >= 0x7F) {
        std::snprintf(t, sizeof t, "\\x%02X", c);
        shown += t;
      } else {
        shown += static_cast<char>(c);
      }
    }
    const mcore_JsonResult r = Probe(b.text, shown.c_str());
    EXPECT_EQ(r.reason, b.reason) << shown;
    if (b.reason != mcore_jsonOk && r.reason == b.reason) {
      EXPECT_EQ(r.offset, b.offset) << shown;
    }
  }
}

// ---- reasons and offsets ----

TEST(JsonProbe, ReaderReasonsAndOffsets) {
  ExpectAll({
      // End: offset is the length
      {"{\"a\":", mcore_jsonEnd, 5},
      {"\"abc", mcore_jsonEnd, 4},
      {"[1,", mcore_jsonEnd, 3},
      {"[\"\\", mcore_jsonEnd, 3},
      {"[\"\\u00", mcore_jsonEnd, 6},
      {"{\"a\"", mcore_jsonEnd, 4},
      {"-", mcore_jsonEnd, 1},
      {" \n", mcore_jsonEnd, 2},
      // Syntax: first wrong byte
      {"[1;2]", mcore_jsonSyntax, 2},
      {"{\"a\":1 \"b\":2}", mcore_jsonSyntax, 7},
      {"]", mcore_jsonSyntax, 0},
      {"[}", mcore_jsonSyntax, 1},
      {"{\"a\":1]", mcore_jsonSyntax, 6},
      {"[1}", mcore_jsonSyntax, 2},
      {"{,}", mcore_jsonSyntax, 1},
      {"[,1]", mcore_jsonSyntax, 1},
      {"[1,,2]", mcore_jsonSyntax, 3},
      {"{\"a\"::1}", mcore_jsonSyntax, 5},
      {"[truex]", mcore_jsonSyntax, 5},
      {"[True]", mcore_jsonSyntax, 1},
      {"[nulL]", mcore_jsonSyntax, 4},
      {"['a']", mcore_jsonSyntax, 1},
      {"[\x0C 1]", mcore_jsonSyntax, 1},  // form feed is not JSON white space
      {"[\xC2\xA0 1]", mcore_jsonSyntax, 1},  // nor is U+00A0
      {"{\"a\":1}#", mcore_jsonTrailing, 7},
      // Utf8: the sequence's first byte
      {"[\"ok\xFF\"]", mcore_jsonUtf8, 4},
      {"[\"ok\x80\"]", mcore_jsonUtf8, 4},
      {"[\"\xC3\"]", mcore_jsonUtf8, 2},
      {"[\"ab\xF0\x9F\x98\"]", mcore_jsonUtf8, 4},
      {"[\"\xF5\x80\x80\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xF8\x88\x80\x80\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xE2\x28\xA1\"]", mcore_jsonUtf8, 2},
      // Control
      {"\"a\tb\"", mcore_jsonControl, 2},
      {"[\"\x1F\"]", mcore_jsonControl, 2},
      {"[\"x\n\"]", mcore_jsonControl, 3},
      // Escape
      {"\"\\x\"", mcore_jsonEscape, 2},
      {"\"\\U0041\"", mcore_jsonEscape, 2},
      {"\"\\'\"", mcore_jsonEscape, 2},
      {"\"\\u004\"", mcore_jsonEscape, 6},
      {"\"\\u-041\"", mcore_jsonEscape, 3},
      // NumberForm
      {"[-01]", mcore_jsonNumberForm, 3},
      {"[00]", mcore_jsonNumberForm, 2},
      {"[1.5e+]", mcore_jsonNumberForm, 6},
      {"[-a]", mcore_jsonNumberForm, 2},
      {"[.5]", mcore_jsonSyntax, 1},
      // DuplicateKey: the second key's quote
      {"{\"k\":1,\"k\":2}", mcore_jsonDuplicateKey, 7},
      {"{\"a/\":1, \"a\\/\":2}", mcore_jsonDuplicateKey, 9},
      {"{\"\\uD83D\\uDE00\":1,\"\xF0\x9F\x98\x80\":2}", mcore_jsonDuplicateKey, 18},
      {"{\"a\\u0000\":1,\"a\":2}", mcore_jsonOk, 0},
      {"{\"\":1,\"\":2}", mcore_jsonDuplicateKey, 6},
      {"[{\"k\":1},{\"k\":2}]", mcore_jsonOk, 0},
      // Trailing
      {"{} x", mcore_jsonTrailing, 3},
      {"[]]", mcore_jsonTrailing, 2},
      {"0 0", mcore_jsonTrailing, 2},
      {"\"a\"\"b\"", mcore_jsonTrailing, 3},
      // accepted
      {"0e0", mcore_jsonOk, 0},
      {"-0.0e-0", mcore_jsonOk, 0},
      {"1E+2", mcore_jsonOk, 0},
      {"1e999999999999999999", mcore_jsonOk, 0},
      {"[\"\x7F\"]", mcore_jsonOk, 0},
      {" \t\r\n[1] \t\r\n", mcore_jsonOk, 0},
      {"{}\n\n\n   ", mcore_jsonOk, 0},
  });
}

TEST(JsonProbe, StringsUtf8AndEscapes) {
  ExpectAll({
      // overlongs of every length
      {"[\"\xC0\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xC1\xBF\"]", mcore_jsonUtf8, 2},
      {"[\"\xE0\x80\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xE0\x9F\xBF\"]", mcore_jsonUtf8, 2},
      {"[\"\xF0\x80\x80\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xF0\x8F\xBF\xBF\"]", mcore_jsonUtf8, 2},
      // the smallest non-overlong of each length
      {"[\"\xC2\x80\"]", mcore_jsonOk, 0},
      {"[\"\xE0\xA0\x80\"]", mcore_jsonOk, 0},
      {"[\"\xF0\x90\x80\x80\"]", mcore_jsonOk, 0},
      // UTF-8 surrogates, both ends
      {"[\"\xED\xA0\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xED\xBF\xBF\"]", mcore_jsonUtf8, 2},
      {"[\"\xED\x9F\xBF\"]", mcore_jsonOk, 0},  // U+D7FF
      {"[\"\xEE\x80\x80\"]", mcore_jsonOk, 0},  // U+E000
      // U+10FFFF accepted, U+110000 refused
      {"[\"\xF4\x8F\xBF\xBF\"]", mcore_jsonOk, 0},
      {"[\"\xF4\x90\x80\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\\uDBFF\\uDFFF\"]", mcore_jsonOk, 0},
      // lone surrogates, both orders
      {"[\"\\uDC00\\uD800\"]", mcore_jsonEscape, 2},
      {"[\"\\uD800\"]", mcore_jsonEscape, 8},
      {"[\"\\uD800\\uD800\"]", mcore_jsonEscape, 8},
      {"[\"\\uDFFF\"]", mcore_jsonEscape, 2},
      {"[\"\\uD800x\"]", mcore_jsonEscape, 8},
      // NUL: escaped accepted, raw refused
      {"[\"\\u0000\"]", mcore_jsonOk, 0},
      {std::string("[\"a\0\"]", 6), mcore_jsonControl, 3},
      // every escape
      {"[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u00E9\"]", mcore_jsonOk, 0},
  });
  // the text after escapes
  struct Want {
    std::string json;
    std::string text;
  } wants[] = {
      {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t"},
      {"\"\\u0041\\u00e9\\u00E9\\u20AC\"", "A\xC3\xA9\xC3\xA9\xE2\x82\xAC"},
      {"\"\\uD83D\\uDE00\"", "\xF0\x9F\x98\x80"},
      {"\"\\uDBFF\\uDFFF\"", "\xF4\x8F\xBF\xBF"},
      {"\"\\uD800\\uDC00\"", "\xF0\x90\x80\x80"},
      {"\"\\u0000\"", std::string("\0", 1)},
      {"\"a\\u0000b\"", std::string("a\0b", 3)},
      {"\"\x7F\"", "\x7F"},
      {"\"\\u007F\\u07FF\\u0800\\uFFFF\"", "\x7F\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF"},
      {"\"\"", ""},
  };
  for (const Want& w : wants) {
    mcore_JsonDoc doc;
    ASSERT_EQ(mcore_JsonReadAlloc(U(w.json), w.json.size(), nullptr, &doc).reason, mcore_jsonOk) << w.json;
    char out[64];
    size_t len = 999;
    ASSERT_EQ(mcore_JsonGetString(&doc, 0, out, sizeof out, &len), mcore_jsonOk) << w.json;
    EXPECT_EQ(std::string(out, len), w.text) << w.json;
    EXPECT_TRUE(mcore_JsonStringEquals(&doc, 0, w.text.data(), w.text.size())) << w.json;
    if (!w.text.empty()) {
      EXPECT_FALSE(mcore_JsonStringEquals(&doc, 0, w.text.data(), w.text.size() - 1)) << w.json;
    }
    std::string longer = w.text + "x";
    EXPECT_FALSE(mcore_JsonStringEquals(&doc, 0, longer.data(), longer.size())) << w.json;
    // capacity one short: reason, the needed length, out unchanged
    if (!w.text.empty()) {
      char small[64];
      std::memset(small, 0x5C, sizeof small);
      size_t need = 12345;
      EXPECT_EQ(mcore_JsonGetString(&doc, 0, small, w.text.size() - 1, &need), mcore_jsonCapacity) << w.json;
      EXPECT_EQ(need, w.text.size()) << w.json;
      for (char c : small) EXPECT_EQ(c, 0x5C) << w.json;
      size_t exact = 0;
      EXPECT_EQ(mcore_JsonGetString(&doc, 0, small, w.text.size(), &exact), mcore_jsonOk) << w.json;
      EXPECT_EQ(exact, w.text.size());
      EXPECT_EQ(std::memcmp(small, w.text.data(), w.text.size()), 0);
      // capacity 0 with a NULL buffer: a length query
      size_t q = 0;
      EXPECT_EQ(mcore_JsonGetString(&doc, 0, nullptr, 0, &q), mcore_jsonCapacity) << w.json;
      EXPECT_EQ(q, w.text.size());
    }
    mcore_JsonRelease(&doc);
  }
}

TEST(JsonProbe, FindAndEqualsWithEscapedKeys) {
  const std::string text =
      "{\"\\u0061b\\n\": 1, \"a\\u0000b\": 2, \"\\uD83D\\uDE00\": 3, \"\\\"q\\\"\": 4, \"plain\": {\"in\": 5}, \"a\": 6}";
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), nullptr, &doc).reason, mcore_jsonOk);
  auto valueOf = [&](const std::string& key) -> int64_t {
    const uint32_t i = mcore_JsonFind(&doc, 0, key.data(), key.size());
    if (i == MCORE_JSON_NONE) return -1;
    int64_t v = -2;
    EXPECT_EQ(mcore_JsonGetInt64(&doc, i, &v), mcore_jsonOk);
    return v;
  };
  EXPECT_EQ(valueOf("ab\n"), 1);
  EXPECT_EQ(valueOf(std::string("a\0b", 3)), 2);
  EXPECT_EQ(valueOf("\xF0\x9F\x98\x80"), 3);
  EXPECT_EQ(valueOf("\"q\""), 4);
  EXPECT_EQ(valueOf("a"), 6);
  EXPECT_EQ(valueOf("ab"), -1);
  EXPECT_EQ(valueOf("\\u0061b\\n"), -1);  // the escapes as written are not the key
  EXPECT_EQ(valueOf("in"), -1);           // not a member of the outer object
  EXPECT_EQ(valueOf(""), -1);
  const uint32_t plain = mcore_JsonFind(&doc, 0, "plain", 5);
  ASSERT_NE(plain, MCORE_JSON_NONE);
  EXPECT_NE(mcore_JsonFind(&doc, plain, "in", 2), MCORE_JSON_NONE);
  // not an object
  EXPECT_EQ(mcore_JsonFind(&doc, 2, "a", 1), MCORE_JSON_NONE);
  EXPECT_EQ(mcore_JsonAt(&doc, doc.count), nullptr);
  EXPECT_EQ(mcore_JsonAt(&doc, MCORE_JSON_NONE), nullptr);
  ASSERT_NE(mcore_JsonAt(&doc, doc.count - 1), nullptr);
  // the key token of "\u0061b\n" holds an escape; "plain" does not
  EXPECT_EQ(doc.tokens[1].count, 1u);
  EXPECT_EQ(doc.tokens[1].type, static_cast<uint32_t>(mcore_jsonString));
  // a non-string token: Invalid, out unchanged
  char out[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  size_t len = 77;
  EXPECT_EQ(mcore_JsonGetString(&doc, 0, out, sizeof out, &len), mcore_jsonInvalid);
  EXPECT_EQ(out[0], 1);
  EXPECT_FALSE(mcore_JsonStringEquals(&doc, 0, "a", 1));
  mcore_JsonRelease(&doc);
}

// ---- depth ----

std::string NestedObjects(uint32_t depth) {
  std::string s;
  for (uint32_t i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  for (uint32_t i = 0; i < depth; ++i) s += "}";
  return s;
}

TEST(JsonProbe, DepthLimitReader) {
  EXPECT_EQ(Probe(NestedObjects(MCORE_JSON_MAX_DEPTH), "objects at max").reason, mcore_jsonOk);
  const mcore_JsonResult r = Probe(NestedObjects(MCORE_JSON_MAX_DEPTH + 1), "objects past max");
  EXPECT_EQ(r.reason, mcore_jsonDepth);
  EXPECT_EQ(r.offset, 5u * MCORE_JSON_MAX_DEPTH);  // the 257th '{'
  // mixed: arrays then an object as the 257th
  std::string mixed = std::string(MCORE_JSON_MAX_DEPTH, '[') + "{}" + std::string(MCORE_JSON_MAX_DEPTH, ']');
  const mcore_JsonResult m = Probe(mixed, "mixed past max");
  EXPECT_EQ(m.reason, mcore_jsonDepth);
  EXPECT_EQ(m.offset, MCORE_JSON_MAX_DEPTH);
  // depth is nesting, not the count of containers: many siblings at depth 2
  std::string wide = "[";
  for (int i = 0; i < 1000; ++i) wide += i ? ",[]" : "[]";
  wide += "]";
  EXPECT_EQ(Probe(wide, "wide").reason, mcore_jsonOk);
  // unclosed nesting past the bound: the bracket, not End
  const mcore_JsonResult u = Probe(std::string(MCORE_JSON_MAX_DEPTH + 5, '['), "unclosed");
  EXPECT_EQ(u.reason, mcore_jsonDepth);
  EXPECT_EQ(u.offset, MCORE_JSON_MAX_DEPTH);
}

TEST(JsonProbe, DepthLimitWriter) {
  Counting c;
  mcore_JsonAllocator a = {Counting::Alloc, Counting::Free, &c};
  mcore_JsonWriter w;
  mcore_JsonWriterInit(&w, nullptr, 0, &a);
  for (uint32_t i = 0; i < MCORE_JSON_MAX_DEPTH; ++i) mcore_JsonWriteBeginArray(&w);
  for (uint32_t i = 0; i < MCORE_JSON_MAX_DEPTH; ++i) mcore_JsonWriteEndArray(&w);
  ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
  EXPECT_EQ(Probe(std::string(w.buffer, w.length), "writer max").reason, mcore_jsonOk);
  mcore_JsonWriterRelease(&w);
  mcore_JsonWriter x;
  mcore_JsonWriterInit(&x, nullptr, 0, &a);
  for (uint32_t i = 0; i < MCORE_JSON_MAX_DEPTH; ++i) {
    mcore_JsonWriteBeginObject(&x);
    mcore_JsonWriteKey(&x, "k", 1);
  }
  mcore_JsonWriteBeginArray(&x);  // the 257th
  EXPECT_NE(x.failed, mcore_jsonOk);
  EXPECT_NE(mcore_JsonWriterFinish(&x), mcore_jsonOk);
  mcore_JsonWriterRelease(&x);
}

// ---- count query, capacity ----

TEST(JsonProbe, CountQueryThenExactCapacity) {
  // obj, "a", arr, 1, 2, obj, "b", null, "c", "x", "d", true, "e", [] -> 14
  const std::string text = "{\"a\":[1,2,{\"b\":null}],\"c\":\"x\",\"d\":true,\"e\":[]}";
  Pattern q;
  const mcore_JsonResult r = mcore_JsonRead(U(text), text.size(), nullptr, 0, &q.doc);
  EXPECT_EQ(r.reason, mcore_jsonCapacity);
  EXPECT_EQ(r.needed, 14u);
  EXPECT_TRUE(q.Unchanged());
  std::vector<mcore_JsonToken> tokens(r.needed + 1);
  std::memset(tokens.data(), 0xEE, tokens.size() * sizeof(mcore_JsonToken));
  Pattern shortBy1;
  const mcore_JsonResult s = mcore_JsonRead(U(text), text.size(), tokens.data(), r.needed - 1, &shortBy1.doc);
  EXPECT_EQ(s.reason, mcore_jsonCapacity);
  EXPECT_EQ(s.needed, 14u);
  EXPECT_TRUE(shortBy1.Unchanged());
  // the token past the capacity untouched
  const unsigned char* last = reinterpret_cast<const unsigned char*>(&tokens[r.needed - 1]);
  for (size_t i = 0; i < sizeof(mcore_JsonToken) * 2; ++i) EXPECT_EQ(last[i], 0xEE);
  mcore_JsonDoc doc;
  const mcore_JsonResult e = mcore_JsonRead(U(text), text.size(), tokens.data(), r.needed, &doc);
  ASSERT_EQ(e.reason, mcore_jsonOk);
  EXPECT_EQ(doc.count, 14u);
  EXPECT_EQ(doc.tokens, tokens.data());
  EXPECT_EQ(doc.tokens[0].next, 14u);
  EXPECT_EQ(doc.tokens[0].count, 4u);
  EXPECT_EQ(doc.tokens[2].type, static_cast<uint32_t>(mcore_jsonArray));
  EXPECT_EQ(doc.tokens[2].count, 3u);
  EXPECT_EQ(doc.tokens[2].next, 8u);
  EXPECT_EQ(doc.tokens[2].start, 5u);
  EXPECT_EQ(doc.tokens[2].length, 16u);
  EXPECT_EQ(doc.tokens[9].type, static_cast<uint32_t>(mcore_jsonString));
  EXPECT_EQ(doc.tokens[9].start, 27u);
  EXPECT_EQ(doc.tokens[9].length, 1u);
  EXPECT_EQ(doc.tokens[13].type, static_cast<uint32_t>(mcore_jsonArray));
  EXPECT_EQ(doc.tokens[13].count, 0u);
  EXPECT_EQ(tokens[14].type, 0xEEEEEEEEu);
  mcore_JsonRelease(&doc);  // not owned: nothing
  // a scalar document needs one token
  const mcore_JsonResult one = mcore_JsonRead(U(std::string("7")), 1, nullptr, 0, &q.doc);
  EXPECT_EQ(one.reason, mcore_jsonCapacity);
  EXPECT_EQ(one.needed, 1u);
}

TEST(JsonProbe, InvalidArguments) {
  Pattern p;
  EXPECT_EQ(mcore_JsonRead(nullptr, 3, nullptr, 0, &p.doc).reason, mcore_jsonInvalid);
  EXPECT_TRUE(p.Unchanged());
  EXPECT_EQ(mcore_JsonRead(U(std::string("1")), 1, nullptr, 0, nullptr).reason, mcore_jsonInvalid);
  mcore_JsonToken t[2];
  EXPECT_EQ(mcore_JsonRead(U(std::string("1")), 1, nullptr, 5, &p.doc).reason, mcore_jsonInvalid);
  (void)t;
  mcore_JsonAllocator onlyRelease = {nullptr, [](void*, void*, size_t) {}, nullptr};
  EXPECT_EQ(mcore_JsonReadAlloc(U(std::string("1")), 1, &onlyRelease, &p.doc).reason, mcore_jsonInvalid);
  EXPECT_TRUE(p.Unchanged());
  mcore_JsonRelease(nullptr);
}

TEST(JsonProbe, LengthLimit) {
  // a text past MCORE_JSON_MAX_LENGTH, backed by untouched zero pages
  const size_t len = static_cast<size_t>(MCORE_JSON_MAX_LENGTH) + 1;
  void* m = mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) GTEST_SKIP() << "no address space";
  Pattern p;
  const mcore_JsonResult r = mcore_JsonRead(static_cast<const uint8_t*>(m), len, nullptr, 0, &p.doc);
  EXPECT_EQ(r.reason, mcore_jsonLimit);
  EXPECT_TRUE(p.Unchanged());
  munmap(m, len);
}

// ---- allocation failure at every index ----

std::string ManyTokens(int n) {
  std::string s = "{\"list\":[";
  for (int i = 0; i < n; ++i) s += (i ? ",{\"v\":" : "{\"v\":") + std::to_string(i) + ",\"s\":\"x\"}";
  return s + "]}";
}

TEST(JsonProbe, ReadAllocFailureAtEveryIndex) {
  for (int n : {0, 1, 3, 40, 900}) {
    const std::string text = ManyTokens(n);
    Counting ok;
    mcore_JsonAllocator a = {Counting::Alloc, Counting::Free, &ok};
    mcore_JsonDoc doc;
    ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), &a, &doc).reason, mcore_jsonOk);
    EXPECT_EQ(doc.count, 3u + 5u * static_cast<uint32_t>(n));
    mcore_JsonRelease(&doc);
    EXPECT_TRUE(ok.live.empty());
    EXPECT_EQ(ok.badSizes, 0);
    EXPECT_EQ(ok.unknownFrees, 0);
    mcore_JsonRelease(&doc);  // a released document is empty: nothing again
    EXPECT_EQ(ok.unknownFrees, 0);
    for (int after = 0; after < 2; ++after) {
      for (int i = 0; i < ok.calls; ++i) {
        Counting c;
        c.failAt = i;
        c.failAfter = after != 0;
        mcore_JsonAllocator f = {Counting::Alloc, Counting::Free, &c};
        Pattern p;
        const mcore_JsonResult r = mcore_JsonReadAlloc(U(text), text.size(), &f, &p.doc);
        EXPECT_EQ(r.reason, mcore_jsonCapacity) << n << " " << i;
        EXPECT_TRUE(c.live.empty()) << n << " " << i;
        EXPECT_EQ(c.badSizes, 0) << n << " " << i;
        EXPECT_EQ(c.unknownFrees, 0) << n << " " << i;
        EXPECT_TRUE(p.Unchanged()) << n << " " << i;
      }
    }
    // a refused text through the allocator leaks nothing either
    const std::string bad = text.substr(0, text.size() - 1) + ",]";
    Counting c;
    mcore_JsonAllocator f = {Counting::Alloc, Counting::Free, &c};
    Pattern p;
    EXPECT_EQ(mcore_JsonReadAlloc(U(bad), bad.size(), &f, &p.doc).reason, mcore_jsonSyntax);
    EXPECT_TRUE(c.live.empty());
    EXPECT_TRUE(p.Unchanged());
  }
}

// ---- truncations ----

TEST(JsonProbe, EveryTruncationRefusedAtTheLength) {
  const std::string docs[] = {
      "{\"a\": [1, -2.5e+3, true, false, null], \"b\\u00e9\": \"\xC3\xA9\\uD83D\\uDE00\\n\", \"c\": {}}",
      "[\"\xF0\x9F\x98\x80\xE2\x82\xAC\", 0, -0, 0.5e-1, [[]], {\"x\": {\"y\": \"z\"}}]",
      "\"a\\\"b\\u0041\\\\\"",
      "{\"k\":\"\\uDBFF\\uDFFF\"}",
  };
  for (const std::string& d : docs) {
    ASSERT_EQ(Probe(d, d.c_str()).reason, mcore_jsonOk) << d;
    for (size_t cut = 0; cut < d.size(); ++cut) {
      const std::string t = d.substr(0, cut);
      const mcore_JsonResult r = Probe(t, t.c_str());
      EXPECT_EQ(r.reason, mcore_jsonEnd) << "cut " << cut << ": " << t;
      EXPECT_EQ(r.offset, cut) << "cut " << cut << ": " << t;
    }
    EXPECT_EQ(Probe(d + " \t\r\n ", "trailing white space").reason, mcore_jsonOk);
  }
}

// ---- forms ----

TEST(JsonProbe, FormOffsetsAndFoundUntouched) {
  //                       0         1         2         3         4
  //                       0123456789012345678901234567890123456789012345
  const std::string text = "[0, {\"n\\u0061me\": \"x\", \"w\": \"7\", \"z\": null}]";
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), nullptr, &doc).reason, mcore_jsonOk);
  const uint32_t obj = 2;
  ASSERT_EQ(doc.tokens[obj].type, static_cast<uint32_t>(mcore_jsonObject));
  const mcore_JsonFormKey all[] = {
      {"name", MCORE_JSON_TAKES_STRING, 1},
      {"w", MCORE_JSON_TAKES_STRING | MCORE_JSON_TAKES_NUMBER, 0},
      {"z", MCORE_JSON_TAKES_NULL | MCORE_JSON_TAKES_NUMBER, 0},
      {"q", MCORE_JSON_TAKES_NUMBER, 0},
  };
  uint32_t found[4];
  mcore_JsonResult r = mcore_JsonReadForm(&doc, obj, all, 4, found);
  ASSERT_EQ(r.reason, mcore_jsonOk);
  EXPECT_EQ(found[0], 4u);  // obj, "name", "x"
  EXPECT_EQ(doc.tokens[found[2]].type, static_cast<uint32_t>(mcore_jsonNull));
  EXPECT_EQ(found[3], MCORE_JSON_NONE);
  // unknown member: its key (the quote)
  const mcore_JsonFormKey noW[] = {{"name", MCORE_JSON_TAKES_STRING, 1}, {"z", MCORE_JSON_TAKES_NULL, 0}};
  uint32_t keep[4] = {42, 42, 42, 42};
  r = mcore_JsonReadForm(&doc, obj, noW, 2, keep);
  EXPECT_EQ(r.reason, mcore_jsonFormUnknown);
  EXPECT_EQ(r.offset, text.find("\"w\""));
  for (uint32_t k : keep) EXPECT_EQ(k, 42u);
  // wrong type: the value's first byte (a string's quote), key index
  const mcore_JsonFormKey wNumber[] = {
      {"name", MCORE_JSON_TAKES_STRING, 1}, {"w", MCORE_JSON_TAKES_NUMBER, 0}, {"z", MCORE_JSON_TAKES_NULL, 0}};
  r = mcore_JsonReadForm(&doc, obj, wNumber, 3, keep);
  EXPECT_EQ(r.reason, mcore_jsonFormType);
  EXPECT_EQ(r.key, 1u);
  for (uint32_t k : keep) EXPECT_EQ(k, 42u);
  // null where only a number is taken
  const mcore_JsonFormKey zNumber[] = {
      {"name", MCORE_JSON_TAKES_STRING, 1}, {"w", MCORE_JSON_TAKES_STRING, 0}, {"z", MCORE_JSON_TAKES_NUMBER, 0}};
  r = mcore_JsonReadForm(&doc, obj, zNumber, 3, keep);
  EXPECT_EQ(r.reason, mcore_jsonFormType);
  EXPECT_EQ(r.offset, text.find("null"));
  EXPECT_EQ(r.key, 2u);
  // required left out: the object's offset
  const mcore_JsonFormKey needQ[] = {
      {"name", MCORE_JSON_TAKES_STRING, 1}, {"w", MCORE_JSON_TAKES_STRING, 0},
      {"z", MCORE_JSON_TAKES_NULL, 0},      {"q", MCORE_JSON_TAKES_NUMBER, 1}};
  r = mcore_JsonReadForm(&doc, obj, needQ, 4, keep);
  EXPECT_EQ(r.reason, mcore_jsonFormMissing);
  EXPECT_EQ(r.offset, 4u);
  EXPECT_EQ(r.key, 3u);
  for (uint32_t k : keep) EXPECT_EQ(k, 42u);
  // not an object: FormType, key NONE, offset the token
  r = mcore_JsonReadForm(&doc, 1, all, 4, keep);
  EXPECT_EQ(r.reason, mcore_jsonFormType);
  EXPECT_EQ(r.key, MCORE_JSON_NONE);
  EXPECT_EQ(r.offset, 1u);
  for (uint32_t k : keep) EXPECT_EQ(k, 42u);
  mcore_JsonRelease(&doc);
}

// FormType's offset for a string value: "offset: its value", the value's
// first byte, which for a string is its quote (as FormUnknown's "its key"
// and DuplicateKey's offsets are the key's quote).
TEST(JsonProbe, FormTypeOffsetOfAStringValueIsItsQuote) {
  const std::string text = "{\"w\": \"7\"}";
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), nullptr, &doc).reason, mcore_jsonOk);
  const mcore_JsonFormKey wNumber[] = {{"w", MCORE_JSON_TAKES_NUMBER, 0}};
  uint32_t found[1] = {42};
  const mcore_JsonResult r = mcore_JsonReadForm(&doc, 0, wNumber, 1, found);
  EXPECT_EQ(r.reason, mcore_jsonFormType);
  EXPECT_EQ(r.key, 0u);
  EXPECT_EQ(r.offset, 6u);  // the quote of "7"
  EXPECT_EQ(found[0], 42u);
  // a string token given as the object: FormType, key NONE, the quote
  const mcore_JsonResult s = mcore_JsonReadForm(&doc, 2, wNumber, 1, found);
  EXPECT_EQ(s.reason, mcore_jsonFormType);
  EXPECT_EQ(s.key, MCORE_JSON_NONE);
  EXPECT_EQ(s.offset, 6u);
  EXPECT_EQ(found[0], 42u);
  mcore_JsonRelease(&doc);
}

// ---- conversions ----

TEST(JsonProbe, ConversionsLeaveOutOnRefusal) {
  struct C {
    const char* text;
    mcore_JsonReason d, f, i, u;
  } cases[] = {
      {"1e999999999999999999", mcore_jsonRange, mcore_jsonRange, mcore_jsonNotInteger, mcore_jsonNotInteger},
      {"-1e400", mcore_jsonRange, mcore_jsonRange, mcore_jsonNotInteger, mcore_jsonNotInteger},
      {"1e39", mcore_jsonOk, mcore_jsonRange, mcore_jsonNotInteger, mcore_jsonNotInteger},
      {"1.0", mcore_jsonOk, mcore_jsonOk, mcore_jsonNotInteger, mcore_jsonNotInteger},
      {"1e2", mcore_jsonOk, mcore_jsonOk, mcore_jsonNotInteger, mcore_jsonNotInteger},
      {"-1", mcore_jsonOk, mcore_jsonOk, mcore_jsonOk, mcore_jsonRange},
      {"9223372036854775808", mcore_jsonOk, mcore_jsonOk, mcore_jsonRange, mcore_jsonOk},
      {"-9223372036854775809", mcore_jsonOk, mcore_jsonOk, mcore_jsonRange, mcore_jsonRange},
      {"18446744073709551616", mcore_jsonOk, mcore_jsonOk, mcore_jsonRange, mcore_jsonRange},
      {"99999999999999999999999", mcore_jsonOk, mcore_jsonOk, mcore_jsonRange, mcore_jsonRange},
      {"00", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"+1", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {" 1", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"1 ", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"-", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {".5", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"1.", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"1e", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"1e+", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"0x10", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"NaN", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"Infinity", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"-01", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
      {"1.5x", mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm, mcore_jsonNumberForm},
  };
  for (const C& c : cases) {
    const size_t n = std::strlen(c.text);
    double d = 1234.5;
    float f = 1234.5f;
    int64_t i = 1234;
    uint64_t u = 1234;
    EXPECT_EQ(mcore_JsonParseDouble(c.text, n, &d), c.d) << c.text;
    EXPECT_EQ(mcore_JsonParseFloat(c.text, n, &f), c.f) << c.text;
    EXPECT_EQ(mcore_JsonParseInt64(c.text, n, &i), c.i) << c.text;
    EXPECT_EQ(mcore_JsonParseUint64(c.text, n, &u), c.u) << c.text;
    if (c.d != mcore_jsonOk) { EXPECT_EQ(d, 1234.5) << c.text; }
    if (c.f != mcore_jsonOk) { EXPECT_EQ(f, 1234.5f) << c.text; }
    if (c.i != mcore_jsonOk) { EXPECT_EQ(i, 1234) << c.text; }
    if (c.u != mcore_jsonOk) { EXPECT_EQ(u, 1234u) << c.text; }
  }
  // a number parsed inside a longer buffer reads only its length
  double d = 0;
  EXPECT_EQ(mcore_JsonParseDouble("12345", 2, &d), mcore_jsonOk);
  EXPECT_EQ(d, 12.0);
  // Get* of a token of another type: Invalid, out unchanged
  const std::string text = "[\"1\", 2]";
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), nullptr, &doc).reason, mcore_jsonOk);
  double gd = 5.5;
  float gf = 5.5f;
  int64_t gi = 5;
  uint64_t gu = 5;
  EXPECT_EQ(mcore_JsonGetDouble(&doc, 1, &gd), mcore_jsonInvalid);
  EXPECT_EQ(mcore_JsonGetFloat(&doc, 0, &gf), mcore_jsonInvalid);
  EXPECT_EQ(mcore_JsonGetInt64(&doc, 1, &gi), mcore_jsonInvalid);
  EXPECT_EQ(mcore_JsonGetUint64(&doc, 99, &gu), mcore_jsonInvalid);
  EXPECT_EQ(gd, 5.5);
  EXPECT_EQ(gf, 5.5f);
  EXPECT_EQ(gi, 5);
  EXPECT_EQ(gu, 5u);
  EXPECT_EQ(mcore_JsonGetUint64(&doc, 2, &gu), mcore_jsonOk);
  EXPECT_EQ(gu, 2u);
  mcore_JsonRelease(&doc);
}

TEST(JsonProbe, IntegerEdges) {
  int64_t i = 7;
  uint64_t u = 7;
  EXPECT_EQ(mcore_JsonParseInt64("-0", 2, &i), mcore_jsonOk);
  EXPECT_EQ(i, 0);
  EXPECT_EQ(mcore_JsonParseUint64("-0", 2, &u), mcore_jsonOk);
  EXPECT_EQ(u, 0u);
  EXPECT_EQ(mcore_JsonParseInt64("9223372036854775807", 19, &i), mcore_jsonOk);
  EXPECT_EQ(i, INT64_MAX);
  EXPECT_EQ(mcore_JsonParseInt64("-9223372036854775808", 20, &i), mcore_jsonOk);
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_EQ(mcore_JsonParseUint64("18446744073709551615", 20, &u), mcore_jsonOk);
  EXPECT_EQ(u, UINT64_MAX);
  EXPECT_EQ(mcore_JsonParseInt64("0", 1, &i), mcore_jsonOk);
  EXPECT_EQ(i, 0);
  EXPECT_EQ(mcore_JsonParseUint64("-1", 2, &u), mcore_jsonRange);
  EXPECT_EQ(mcore_JsonParseUint64("-18446744073709551616", 21, &u), mcore_jsonRange);
  EXPECT_EQ(u, UINT64_MAX);  // unchanged since the last success
}

struct DoubleCase {
  std::string text;
  uint64_t bits;
};

TEST(JsonProbe, ParseDoubleEdges) {
  const std::string tieOne = Exact((1ull << 53) + 1, -53);           // 1 + 2^-53: halfway 1 and next
  const std::string tieThree = Exact((1ull << 53) + 3, -53);         // halfway up to an even
  const std::string tieSub = Exact(1, -1075);                        // half the smallest subnormal
  const std::string tieSub3 = Exact(3, -1075);                       // 1.5 * smallest: to 2 (even)
  const std::string tieMax = Exact((1ull << 54) - 1, 970);           // halfway max .. 2^1024
  const std::string tieNormal = Exact((1ull << 53) - 1, -1075);      // halfway max subnormal .. min normal
  const std::string zeros(3000, '0');
  std::vector<DoubleCase> cases = {
      {"0e0", 0},
      {"-0.0e-0", 0x8000000000000000ull},
      {"-0", 0x8000000000000000ull},
      {"1E+2", Bits(100.0)},
      {"1e-999999999999", 0},
      {"-1e-999999999999", 0x8000000000000000ull},
      {"0e999999999999", 0},
      {"-0e999999999999", 0x8000000000000000ull},
      {"0." + std::string(42, '0') + "1e43", Bits(1.0)},
      {"1" + zeros + "e-3000", Bits(1.0)},
      {"0." + zeros + "1e3001", Bits(1.0)},
      {"0." + zeros + "1", 0},  // 1e-3001
      {"4.9406564584124654e-324", 1},
      {"5e-324", 1},
      {"2.2250738585072014e-308", 0x0010000000000000ull},
      {"2.2250738585072011e-308", 0x000FFFFFFFFFFFFFull},
      {"1.7976931348623157e308", 0x7FEFFFFFFFFFFFFFull},
      {"1.7976931348623158e308", 0x7FEFFFFFFFFFFFFFull},
      {"9007199254740993", Bits(9007199254740992.0)},
      {"9007199254740995", Bits(9007199254740996.0)},
      {"9007199254740993.0000000000000000000000000000001", Bits(9007199254740994.0)},
      {"9007199254740992.9999999999999999999999999999999", Bits(9007199254740992.0)},
      {tieOne, Bits(1.0)},
      {tieOne + zeros, Bits(1.0)},
      {tieOne + zeros + "1", Bits(1.0) + 1},
      {JustBelow(tieOne, 3000), Bits(1.0)},  // just below
      {tieThree, Bits(1.0) + 2},
      {tieThree + zeros, Bits(1.0) + 2},
      {tieSub, 0},
      {tieSub + zeros, 0},
      {tieSub + zeros + "1", 1},
      {"-" + tieSub + zeros + "1", 0x8000000000000001ull},
      {"-" + tieSub, 0x8000000000000000ull},
      {tieSub3, 2},
      {tieNormal, 0x0010000000000000ull},
      {JustBelow(tieNormal, 2000), 0x000FFFFFFFFFFFFFull},
      {JustBelow(tieMax, 2000), 0x7FEFFFFFFFFFFFFFull},
      {"1e23", Bits(1e23)},
      {"8.98846567431158e307", Bits(8.98846567431158e307)},
      {"123456789012345678901234567890e-30", Bits(0.12345678901234568)},
  };
  for (const DoubleCase& c : cases) {
    double v = 42;
    EXPECT_EQ(mcore_JsonParseDouble(c.text.data(), c.text.size(), &v), mcore_jsonOk) << c.text.substr(0, 80);
    EXPECT_EQ(Bits(v), c.bits) << c.text.substr(0, 80) << " (" << c.text.size() << " chars)";
    double ref = 0;
    ASSERT_TRUE(MpfrDouble(c.text, &ref));
    EXPECT_EQ(Bits(ref), c.bits) << "my expectation disagrees with MPFR: " << c.text.substr(0, 80);
  }
  // overflow: the exact tie to 2^1024 and above refuse, nothing written
  for (const std::string& s : {tieMax, JustAbove(tieMax, 3000), std::string("1.7976931348623159e308"),
                               std::string("-1.7976931348623159e308"), std::string("1e309")}) {
    double v = 42;
    EXPECT_EQ(mcore_JsonParseDouble(s.data(), s.size(), &v), mcore_jsonRange) << s.substr(0, 60);
    EXPECT_EQ(v, 42.0);
  }
}

TEST(JsonProbe, ParseFloatEdges) {
  const std::string tieOne = Exact((1ull << 24) + 1, -24);     // 1 + 2^-24
  const std::string tieSub = Exact(1, -150);                   // half the smallest subnormal
  const std::string tieMax = Exact((1ull << 25) - 1, 103);     // halfway FLT_MAX .. 2^128
  const std::string tieNormal = Exact((1ull << 24) - 1, -150); // max subnormal .. min normal
  const std::string zeros(3000, '0');
  struct FC {
    std::string text;
    uint32_t bits;
  } cases[] = {
      {"0e0", 0},
      {"-0.0e-0", 0x80000000u},
      {"1E+2", Bits(100.0f)},
      {"1e-999999999999", 0},
      {"0e999999999999", 0},
      {"1e-45", 1},
      {"1.4e-45", 1},
      {"7.1e-46", 1},
      {"7e-46", 0},
      {"1.17549435e-38", 0x00800000u},
      {"3.4028235e38", 0x7F7FFFFFu},
      {"3.4028235677973366e38", 0x7F7FFFFFu},
      {"16777217", Bits(16777216.0f)},
      {"16777219", Bits(16777220.0f)},
      {tieOne, Bits(1.0f)},
      {tieOne + zeros, Bits(1.0f)},
      // past the binary32 tie by less than binary64 resolves: no double rounding
      {tieOne + "000000000000000000001", Bits(1.0f) + 1},
      {JustBelow(tieOne, 2000), Bits(1.0f)},
      {tieSub, 0},
      {tieSub + zeros + "1", 1},
      {"-" + tieSub + zeros + "1", 0x80000001u},
      {tieNormal, 0x00800000u},
      {JustBelow(tieMax, 2000), 0x7F7FFFFFu},
      {"0.1", Bits(0.1f)},
      {"1.00000017881393432617187499", Bits(1.0f) + 1},  // just below 1.5 ulp tie
      {"1.000000178813934326171875", Bits(1.0f) + 2},     // 1 + 3*2^-24: tie to even
  };
  for (const FC& c : cases) {
    float v = 42;
    EXPECT_EQ(mcore_JsonParseFloat(c.text.data(), c.text.size(), &v), mcore_jsonOk) << c.text.substr(0, 80);
    EXPECT_EQ(Bits(v), c.bits) << c.text.substr(0, 80) << " (" << c.text.size() << " chars)";
    float ref = 0;
    ASSERT_TRUE(MpfrFloat(c.text, &ref));
    EXPECT_EQ(Bits(ref), c.bits) << "my expectation disagrees with MPFR: " << c.text.substr(0, 80);
  }
  for (const std::string& s : {tieMax, std::string("3.4028235677973367e38"), std::string("-3.5e38"),
                               std::string("1e39")}) {
    float v = 42;
    EXPECT_EQ(mcore_JsonParseFloat(s.data(), s.size(), &v), mcore_jsonRange) << s.substr(0, 60);
    EXPECT_EQ(v, 42.0f);
  }
}

// Random long decimals near binary ties against MPFR.
TEST(JsonProbe, LongDecimalsAgainstMpfr) {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int n = 0; n < 800; ++n) {
    // a double's exact midpoint with the next one, then perturbed
    uint64_t b = next() & 0x7FEFFFFFFFFFFFFFull;
    if (n % 5 == 0) b &= 0x000FFFFFFFFFFFFFull;  // subnormals
    const int be = static_cast<int>((b >> 52) & 0x7FF);
    const uint64_t frac = b & 0x000FFFFFFFFFFFFFull;
    const uint64_t m = be ? (frac | (1ull << 52)) : frac;
    const int e = be ? be - 1075 : -1074;
    std::string s = Exact(2 * m + 1, e - 1);
    if (n % 3 == 1) s = JustAbove(s, next() % 40);
    if (n % 3 == 2) s = JustBelow(s, 1 + next() % 30);
    double v = 0, ref = 0;
    const bool fin = MpfrDouble(s, &ref);
    const mcore_JsonReason r = mcore_JsonParseDouble(s.data(), s.size(), &v);
    if (!fin) {
      EXPECT_EQ(r, mcore_jsonRange) << s.substr(0, 60);
    } else {
      ASSERT_EQ(r, mcore_jsonOk) << s.substr(0, 60);
      ASSERT_EQ(Bits(v), Bits(ref)) << s.substr(0, 80) << " len " << s.size();
    }
  }
  for (int n = 0; n < 3000; ++n) {
    uint32_t b = static_cast<uint32_t>(next()) & 0x7F7FFFFFu;
    if (n % 5 == 0) b &= 0x007FFFFFu;
    const int be = static_cast<int>((b >> 23) & 0xFF);
    const uint64_t frac = b & 0x007FFFFFu;
    const uint64_t m = be ? (frac | (1u << 23)) : frac;
    const int e = be ? be - 150 : -149;
    std::string s = Exact(2 * m + 1, e - 1);
    if (n % 3 == 1) s = JustAbove(s, next() % 30);
    if (n % 3 == 2) s = JustBelow(s, 1 + next() % 30);
    float v = 0, ref = 0;
    const bool fin = MpfrFloat(s, &ref);
    const mcore_JsonReason r = mcore_JsonParseFloat(s.data(), s.size(), &v);
    if (!fin) {
      EXPECT_EQ(r, mcore_jsonRange) << s.substr(0, 60);
    } else {
      ASSERT_EQ(r, mcore_jsonOk) << s.substr(0, 60);
      ASSERT_EQ(Bits(v), Bits(ref)) << s.substr(0, 80) << " len " << s.size();
    }
  }
}

// ---- formatting ----

TEST(JsonProbe, FormatLayoutThresholds) {
  struct C {
    double v;
    const char* want;
  } cases[] = {
      {1e21, "1e+21"},
      {999999999999999900000.0, "999999999999999900000"},
      {1e20, "100000000000000000000"},
      {123456789012345680000.0, "123456789012345680000"},
      {1e-7, "1e-7"},
      {1.5e-7, "1.5e-7"},
      {0.000001, "0.000001"},
      {0.0000012345, "0.0000012345"},
      {-0.000001, "-0.000001"},
      {-1e-7, "-1e-7"},
      {-1e21, "-1e+21"},
      {-0.0, "-0"},
      {0.0, "0"},
      {1.0, "1"},
      {-1.5, "-1.5"},
      {123.0, "123"},
      {0.1, "0.1"},
      {1e23, "1e+23"},
      {5e-324, "5e-324"},
      {-5e-324, "-5e-324"},
      {DBL_MAX, "1.7976931348623157e+308"},
      {-DBL_MAX, "-1.7976931348623157e+308"},
      {DBL_MIN, "2.2250738585072014e-308"},
      {D(0x000FFFFFFFFFFFFFull), "2.225073858507201e-308"},
      {9007199254740992.0, "9007199254740992"},
      {1.2345678901234567e-300, "1.2345678901234568e-300"},
  };
  for (const C& c : cases) {
    EXPECT_EQ(FormatD(c.v), c.want);
    EXPECT_EQ(Expected(c.v), c.want) << "oracle";
  }
  struct CF {
    float v;
    const char* want;
  } fcases[] = {
      {1e21f, "1e+21"},
      {1e20f, "100000000000000000000"},
      {1e-7f, "1e-7"},
      {0.000001f, "0.000001"},
      {-0.0f, "-0"},
      {0.1f, "0.1"},
      {16777216.0f, "16777216"},
      {FLT_MAX, "3.4028235e+38"},
      {-FLT_MAX, "-3.4028235e+38"},
      {FLT_MIN, "1.1754944e-38"},
      {F(1), "1e-45"},
      {F(0x007FFFFF), "1.1754942e-38"},
      {1.0000001f, "1.0000001"},
      {3.0e10f, "30000000000"},
  };
  for (const CF& c : fcases) {
    EXPECT_EQ(FormatF(c.v), c.want);
    EXPECT_EQ(Expected(c.v), c.want) << "oracle";
  }
  char buf[MCORE_JSON_NUMBER_CHARS];
  EXPECT_EQ(mcore_JsonFormatDouble(NAN, buf), 0u);
  EXPECT_EQ(mcore_JsonFormatDouble(-INFINITY, buf), 0u);
  EXPECT_EQ(mcore_JsonFormatFloat(INFINITY, buf), 0u);
  EXPECT_EQ(mcore_JsonFormatFloat(-NAN, buf), 0u);
}

TEST(JsonProbe, FormatShortestNearestAgainstOracle) {
  uint64_t state = 88172645463325252ull;
  auto next = [&]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::vector<double> ds;
  // every power of two and ten with both neighbours (the narrow lower gap at
  // a power of two, the layout thresholds at 1e21 and 1e-7)
  for (int i = -1074; i <= 1023; ++i) ds.push_back(std::ldexp(1.0, i));
  for (int i = -323; i <= 308; ++i) ds.push_back(std::strtod(("1e" + std::to_string(i)).c_str(), nullptr));
  for (size_t i = 0, n = ds.size(); i < n; ++i) {
    ds.push_back(std::nextafter(ds[i], 0.0));
    ds.push_back(std::nextafter(ds[i], INFINITY));
    ds.push_back(-ds[i]);
  }
  for (int i = 0; i < 12000; ++i) {
    double v = D(next());
    if (!std::isfinite(v)) continue;
    ds.push_back(v);
  }
  for (int i = 0; i < 2000; ++i) ds.push_back(D(next() & 0x800FFFFFFFFFFFFFull));  // subnormals
  for (double v : ds) {
    if (!std::isfinite(v)) continue;
    const std::string got = FormatD(v);
    ASSERT_EQ(got, Expected(v)) << std::hexfloat << v;
    double back = 0;
    ASSERT_EQ(mcore_JsonParseDouble(got.data(), got.size(), &back), mcore_jsonOk) << got;
    ASSERT_EQ(Bits(back), Bits(v)) << got;
  }
  std::vector<float> fs;
  for (int i = -149; i <= 127; ++i) fs.push_back(std::ldexp(1.0f, i));
  for (int i = -45; i <= 38; ++i) fs.push_back(std::strtof(("1e" + std::to_string(i)).c_str(), nullptr));
  for (size_t i = 0, n = fs.size(); i < n; ++i) {
    fs.push_back(std::nextafter(fs[i], 0.0f));
    fs.push_back(std::nextafter(fs[i], INFINITY));
    fs.push_back(-fs[i]);
  }
  for (int i = 0; i < 12000; ++i) {
    float v = F(static_cast<uint32_t>(next()));
    if (!std::isfinite(v)) continue;
    fs.push_back(v);
  }
  for (int i = 0; i < 2000; ++i) fs.push_back(F(static_cast<uint32_t>(next()) & 0x807FFFFFu));
  for (float v : fs) {
    if (!std::isfinite(v)) continue;
    const std::string got = FormatF(v);
    ASSERT_EQ(got, Expected(v)) << std::hexfloat << v;
    float back = 0;
    ASSERT_EQ(mcore_JsonParseFloat(got.data(), got.size(), &back), mcore_jsonOk) << got;
    ASSERT_EQ(Bits(back), Bits(v)) << got;
  }
}

// ---- writer ----

using Body = void (*)(mcore_JsonWriter*);

void Sample(mcore_JsonWriter* w) {
  mcore_JsonWriteBeginObject(w);
  mcore_JsonWriteKey(w, "a", 1);
  mcore_JsonWriteBeginArray(w);
  mcore_JsonWriteDouble(w, 1.5);
  mcore_JsonWriteFloat(w, -0.0f);
  mcore_JsonWriteBeginObject(w);
  mcore_JsonWriteEndObject(w);
  mcore_JsonWriteString(w, "\x7F/\xE2\x80\xA8\x1F", 6);
  mcore_JsonWriteEndArray(w);
  mcore_JsonWriteKey(w, "b\"", 2);
  mcore_JsonWriteBeginArray(w);
  mcore_JsonWriteEndArray(w);
  mcore_JsonWriteKey(w, "c", 1);
  mcore_JsonWriteInt64(w, INT64_MIN);
  mcore_JsonWriteKey(w, "d", 1);
  mcore_JsonWriteBool(w, 0);
  mcore_JsonWriteEndObject(w);
}

// A growable writer through a counting allocator (a NULL allocator means a
// caller buffer); checks nothing leaks.
std::string Grown(Body body, mcore_JsonReason* reason) {
  Counting c;
  mcore_JsonAllocator a = {Counting::Alloc, Counting::Free, &c};
  mcore_JsonWriter w;
  mcore_JsonWriterInit(&w, nullptr, 0, &a);
  body(&w);
  *reason = mcore_JsonWriterFinish(&w);
  std::string s = *reason == mcore_jsonOk ? std::string(w.buffer, w.length) : "";
  mcore_JsonWriterRelease(&w);
  EXPECT_TRUE(c.live.empty());
  EXPECT_EQ(c.badSizes, 0);
  return s;
}

TEST(JsonProbe, WriterLayoutAndCallerBuffer) {
  mcore_JsonReason r;
  const std::string want =
      "{\n"
      "  \"a\": [\n"
      "    1.5,\n"
      "    -0,\n"
      "    {},\n"
      "    \"\x7F/\xE2\x80\xA8\\u001f\"\n"
      "  ],\n"
      "  \"b\\\"\": [],\n"
      "  \"c\": -9223372036854775808,\n"
      "  \"d\": false\n"
      "}\n";
  const std::string got = Grown(Sample, &r);
  ASSERT_EQ(r, mcore_jsonOk);
  // \u001f or \u001F: the header does not name the case; compare ignoring it
  std::string norm = got;
  const size_t at = norm.find("\\u001F");
  if (at != std::string::npos) norm[at + 5] = 'f';
  EXPECT_EQ(norm, want);
  // every too-small caller buffer: counts on, Capacity and the needed length,
  // nothing written past the capacity
  for (size_t cap = 0; cap < got.size(); ++cap) {
    std::vector<char> buf(got.size() + 16, '\x5A');
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, buf.data(), cap, nullptr);
    Sample(&w);
    EXPECT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonCapacity) << cap;
    EXPECT_EQ(w.length, got.size()) << cap;
    for (size_t i = cap; i < buf.size(); ++i) ASSERT_EQ(buf[i], '\x5A') << cap << " " << i;
    // what was written is the text's start; the rest of the buffer untouched
    size_t same = 0;
    while (same < cap && buf[same] == got[same]) ++same;
    for (size_t i = same; i < cap; ++i) ASSERT_EQ(buf[i], '\x5A') << cap << " " << i;
    mcore_JsonWriterRelease(&w);
  }
  std::vector<char> exact(got.size() + 4, '\x5A');
  mcore_JsonWriter w;
  mcore_JsonWriterInit(&w, exact.data(), got.size(), nullptr);
  Sample(&w);
  ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
  EXPECT_EQ(w.length, got.size());
  EXPECT_EQ(std::string(exact.data(), got.size()), got);
  EXPECT_EQ(exact[got.size()], '\x5A');
  // reads back
  EXPECT_EQ(Probe(got, "written").reason, mcore_jsonOk);
}

TEST(JsonProbe, WriterAllocationFailure) {
  mcore_JsonWriter w;
  Counting ok2;
  mcore_JsonAllocator a2 = {Counting::Alloc, Counting::Free, &ok2};
  auto big = [](mcore_JsonWriter* x) {
    mcore_JsonWriteBeginArray(x);
    for (int i = 0; i < 2000; ++i) mcore_JsonWriteString(x, "0123456789abcdef", 16);
    mcore_JsonWriteEndArray(x);
  };
  mcore_JsonWriterInit(&w, nullptr, 0, &a2);
  big(&w);
  ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
  mcore_JsonWriterRelease(&w);
  EXPECT_TRUE(ok2.live.empty());
  EXPECT_EQ(ok2.badSizes, 0);
  for (int i = 0; i < ok2.calls; ++i) {
    Counting c;
    c.failAt = i;
    mcore_JsonAllocator f = {Counting::Alloc, Counting::Free, &c};
    mcore_JsonWriterInit(&w, nullptr, 0, &f);
    big(&w);
    EXPECT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonCapacity) << i;
    mcore_JsonWriterRelease(&w);
    EXPECT_TRUE(c.live.empty()) << i;
    EXPECT_EQ(c.badSizes, 0) << i;
    EXPECT_EQ(c.unknownFrees, 0) << i;
  }
}

TEST(JsonProbe, WriterMisuseSticks) {
  struct Case {
    const char* what;
    Body body;
    mcore_JsonReason reason;
  } cases[] = {
      {"value without key", [](mcore_JsonWriter* w) { mcore_JsonWriteBeginObject(w); mcore_JsonWriteInt64(w, 1); },
       mcore_jsonInvalid},
      {"array without key",
       [](mcore_JsonWriter* w) { mcore_JsonWriteBeginObject(w); mcore_JsonWriteBeginArray(w); }, mcore_jsonInvalid},
      {"key at top", [](mcore_JsonWriter* w) { mcore_JsonWriteKey(w, "a", 1); }, mcore_jsonInvalid},
      {"key in array",
       [](mcore_JsonWriter* w) { mcore_JsonWriteBeginArray(w); mcore_JsonWriteKey(w, "a", 1); }, mcore_jsonInvalid},
      {"key after key",
       [](mcore_JsonWriter* w) {
         mcore_JsonWriteBeginObject(w);
         mcore_JsonWriteKey(w, "a", 1);
         mcore_JsonWriteKey(w, "b", 1);
       },
       mcore_jsonInvalid},
      {"end object with key pending",
       [](mcore_JsonWriter* w) {
         mcore_JsonWriteBeginObject(w);
         mcore_JsonWriteKey(w, "a", 1);
         mcore_JsonWriteEndObject(w);
       },
       mcore_jsonInvalid},
      {"end array without begin", [](mcore_JsonWriter* w) { mcore_JsonWriteEndArray(w); }, mcore_jsonInvalid},
      {"end object without begin", [](mcore_JsonWriter* w) { mcore_JsonWriteEndObject(w); }, mcore_jsonInvalid},
      {"end array of an object",
       [](mcore_JsonWriter* w) { mcore_JsonWriteBeginObject(w); mcore_JsonWriteEndArray(w); }, mcore_jsonInvalid},
      {"finish with nothing", [](mcore_JsonWriter*) {}, mcore_jsonInvalid},
      {"finish inside object", [](mcore_JsonWriter* w) { mcore_JsonWriteBeginObject(w); }, mcore_jsonInvalid},
      {"two top-level values",
       [](mcore_JsonWriter* w) {
         mcore_JsonWriteBeginArray(w);
         mcore_JsonWriteEndArray(w);
         mcore_JsonWriteString(w, "x", 1);
       },
       mcore_jsonInvalid},
      {"end after complete",
       [](mcore_JsonWriter* w) {
         mcore_JsonWriteBeginArray(w);
         mcore_JsonWriteEndArray(w);
         mcore_JsonWriteEndArray(w);
       },
       mcore_jsonInvalid},
      {"NaN", [](mcore_JsonWriter* w) { mcore_JsonWriteDouble(w, NAN); }, mcore_jsonNotFinite},
      {"-inf double in array",
       [](mcore_JsonWriter* w) { mcore_JsonWriteBeginArray(w); mcore_JsonWriteDouble(w, -INFINITY); },
       mcore_jsonNotFinite},
      {"inf float", [](mcore_JsonWriter* w) { mcore_JsonWriteFloat(w, INFINITY); }, mcore_jsonNotFinite},
      {"NaN float as member",
       [](mcore_JsonWriter* w) {
         mcore_JsonWriteBeginObject(w);
         mcore_JsonWriteKey(w, "a", 1);
         mcore_JsonWriteFloat(w, NAN);
       },
       mcore_jsonNotFinite},
  };
  for (const Case& c : cases) {
    for (int caller = 0; caller < 2; ++caller) {
      char buf[256];
      Counting counting;
      mcore_JsonAllocator grow = {Counting::Alloc, Counting::Free, &counting};
      mcore_JsonWriter w;
      if (caller) {
        mcore_JsonWriterInit(&w, buf, sizeof buf, nullptr);
      } else {
        mcore_JsonWriterInit(&w, nullptr, 0, &grow);
      }
      c.body(&w);
      const size_t length = w.length;
      if (c.reason != mcore_jsonOk && std::strncmp(c.what, "finish", 6) != 0) {
        EXPECT_EQ(w.failed, c.reason) << c.what;
        // sticks: proper calls afterwards change nothing
        mcore_JsonWriteEndObject(&w);
        mcore_JsonWriteEndArray(&w);
        mcore_JsonWriteNull(&w);
        EXPECT_EQ(w.length, length) << c.what;
        EXPECT_EQ(w.failed, c.reason) << c.what;
      }
      EXPECT_EQ(mcore_JsonWriterFinish(&w), c.reason) << c.what;
      EXPECT_EQ(mcore_JsonWriterFinish(&w), c.reason) << c.what << " (second finish)";
      mcore_JsonWriterRelease(&w);
      EXPECT_TRUE(counting.live.empty()) << c.what;
    }
  }
  // strings and keys that are not UTF-8 are refused
  const std::string bad[] = {"\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "a\x80", "\xE2\x82", "\xFF"};
  Counting c;
  mcore_JsonAllocator a = {Counting::Alloc, Counting::Free, &c};
  for (const std::string& s : bad) {
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, nullptr, 0, &a);
    mcore_JsonWriteString(&w, s.data(), s.size());
    EXPECT_NE(mcore_JsonWriterFinish(&w), mcore_jsonOk);
    mcore_JsonWriterRelease(&w);
    mcore_JsonWriterInit(&w, nullptr, 0, &a);
    mcore_JsonWriteBeginObject(&w);
    mcore_JsonWriteKey(&w, s.data(), s.size());
    mcore_JsonWriteNull(&w);
    mcore_JsonWriteEndObject(&w);
    EXPECT_NE(mcore_JsonWriterFinish(&w), mcore_jsonOk);
    mcore_JsonWriterRelease(&w);
  }
  // U+10FFFF and NUL are fine
  mcore_JsonReason r;
  EXPECT_EQ(Grown([](mcore_JsonWriter* w) { mcore_JsonWriteString(w, "\xF4\x8F\xBF\xBF\0", 5); }, &r),
            "\"\xF4\x8F\xBF\xBF\\u0000\"\n");
  EXPECT_EQ(r, mcore_jsonOk);
}

TEST(JsonProbe, WriterNumbersAreFormatText) {
  // the writer's numbers are the format functions' text, double and float
  const double ds[] = {1e21, 999999999999999900000.0, 1e-7, 0.000001, -0.0, 5e-324, DBL_MAX, 0.1, 1e23};
  for (double d : ds) {
    mcore_JsonReason r;
    static double cur;
    cur = d;
    const std::string s = Grown([](mcore_JsonWriter* w) { mcore_JsonWriteDouble(w, cur); }, &r);
    EXPECT_EQ(s, Expected(d) + "\n");
  }
  const float fs[] = {1e21f, 1e-7f, -0.0f, F(1), FLT_MAX, 0.1f, 16777216.0f};
  for (float f : fs) {
    mcore_JsonReason r;
    static float cur;
    cur = f;
    const std::string s = Grown([](mcore_JsonWriter* w) { mcore_JsonWriteFloat(w, cur); }, &r);
    EXPECT_EQ(s, Expected(f) + "\n");
  }
  mcore_JsonReason r;
  EXPECT_EQ(Grown([](mcore_JsonWriter* w) { mcore_JsonWriteUint64(w, UINT64_MAX); }, &r), "18446744073709551615\n");
  EXPECT_EQ(Grown([](mcore_JsonWriter* w) { mcore_JsonWriteInt64(w, 0); }, &r), "0\n");
  EXPECT_EQ(Grown([](mcore_JsonWriter* w) { mcore_JsonWriteNull(w); }, &r), "null\n");
  EXPECT_EQ(Grown([](mcore_JsonWriter* w) { mcore_JsonWriteBool(w, 7); }, &r), "true\n");
}


// ---- more break attempts ----

TEST(JsonProbe, ExponentArithmeticDoesNotOverflow) {
  const std::string z5000(5000, '0');
  struct C {
    std::string text;
    mcore_JsonReason reason;
    uint64_t bits;
  } cases[] = {
      {"0." + z5000 + "1e2147483647", mcore_jsonRange, 0},
      {"0." + z5000 + "1e5001", mcore_jsonOk, Bits(1.0)},
      {"1" + z5000 + "e-2147483648", mcore_jsonOk, 0},
      {"1" + z5000 + "e-5000", mcore_jsonOk, Bits(1.0)},
      {"1e-9223372036854775808", mcore_jsonOk, 0},
      {"1e-9223372036854775809", mcore_jsonOk, 0},
      {"-1e-99999999999999999999999999", mcore_jsonOk, 0x8000000000000000ull},
      {"1e9223372036854775807", mcore_jsonRange, 0},
      {"1e18446744073709551616", mcore_jsonRange, 0},
      {"0.0000001e9223372036854775807", mcore_jsonRange, 0},
      {"1" + z5000 + "e-9223372036854775808", mcore_jsonOk, 0},
      {"0." + z5000 + "1e+9223372036854775807", mcore_jsonRange, 0},
      {"0e-9223372036854775809", mcore_jsonOk, 0},
      {"0." + z5000 + "e99999999999999999999", mcore_jsonOk, 0},
      {"0.0" + z5000 + "e99999999999999999999", mcore_jsonOk, 0},
      {"123e-2", mcore_jsonOk, Bits(1.23)},
      {"1E-0000000000000000000000002", mcore_jsonOk, Bits(0.01)},
      {"1e+0000000000000000000000308", mcore_jsonOk, Bits(1e308)},
  };
  for (const C& c : cases) {
    double v = 42;
    EXPECT_EQ(mcore_JsonParseDouble(c.text.data(), c.text.size(), &v), c.reason) << c.text.substr(0, 40) << "..."
                                                                                   << c.text.substr(c.text.size() - 30);
    if (c.reason == mcore_jsonOk) {
      EXPECT_EQ(Bits(v), c.bits) << c.text.substr(c.text.size() - 30);
    } else {
      EXPECT_EQ(v, 42.0);
    }
    float f = 42;
    const mcore_JsonReason rf = mcore_JsonParseFloat(c.text.data(), c.text.size(), &f);
    if (c.reason != mcore_jsonOk || c.bits == 0 || c.bits == 0x8000000000000000ull || c.bits == Bits(1.0)) {
      EXPECT_EQ(rf, c.reason) << c.text.substr(c.text.size() - 30);
    }
  }
}

TEST(JsonProbe, VeryLongDigitStrings) {
  const std::string tieOne = Exact((1ull << 53) + 1, -53);
  const std::string tieOneF = Exact((1ull << 24) + 1, -24);
  const std::string z(200000, '0');
  double v = 0;
  std::string s = tieOne + z + "1";
  ASSERT_EQ(mcore_JsonParseDouble(s.data(), s.size(), &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), Bits(1.0) + 1);
  s = tieOne + z;
  ASSERT_EQ(mcore_JsonParseDouble(s.data(), s.size(), &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), Bits(1.0));
  s = JustBelow(tieOne, 200000);
  ASSERT_EQ(mcore_JsonParseDouble(s.data(), s.size(), &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), Bits(1.0));
  float f = 0;
  s = tieOneF + z + "1";
  ASSERT_EQ(mcore_JsonParseFloat(s.data(), s.size(), &f), mcore_jsonOk);
  EXPECT_EQ(Bits(f), Bits(1.0f) + 1);
  // a huge integer part: 10^200000 is past binary64
  s = "1" + z;
  v = 42;
  EXPECT_EQ(mcore_JsonParseDouble(s.data(), s.size(), &v), mcore_jsonRange);
  EXPECT_EQ(v, 42.0);
  // and as a document: read, then converted on demand
  const std::string doc = "[" + tieOne + z + "1]";
  mcore_JsonDoc d;
  ASSERT_EQ(mcore_JsonReadAlloc(U(doc), doc.size(), nullptr, &d).reason, mcore_jsonOk);
  ASSERT_EQ(mcore_JsonGetDouble(&d, 1, &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), Bits(1.0) + 1);
  EXPECT_EQ(d.tokens[1].length, doc.size() - 2);
  mcore_JsonRelease(&d);
}

TEST(JsonProbe, ReaderMoreEdges) {
  ExpectAll({
      // a count query and a full read refuse the same way
      {"{\"\\u00e9\":1,\"\xC3\xA9\":2}", mcore_jsonDuplicateKey, 12},
      {"{\"a\\\\b\":1,\"a\\u005Cb\":2}", mcore_jsonDuplicateKey, 10},
      {"\x7F", mcore_jsonSyntax, 0},
      {"[1]\x7F", mcore_jsonTrailing, 3},
      {"-2.", mcore_jsonEnd, 3},
      {"-2.5e", mcore_jsonEnd, 5},
      {"-2.5e+", mcore_jsonEnd, 6},
      {"-2.5", mcore_jsonOk, 0},
      {"-0", mcore_jsonOk, 0},
      {"-00", mcore_jsonNumberForm, 2},
      {"0123", mcore_jsonNumberForm, 1},
      {"\"\\u", mcore_jsonEnd, 3},
      {"\"\\uD800", mcore_jsonEnd, 7},
      {"\"\\uD800\\", mcore_jsonEnd, 8},
      {"\"\\uD800\\u", mcore_jsonEnd, 9},
      {"\"\\uD800\\uDC0", mcore_jsonEnd, 12},
      {"\"\xF0\x9F\x98", mcore_jsonEnd, 4},
      {"tru", mcore_jsonEnd, 3},
      {"nul", mcore_jsonEnd, 3},
      {"fals", mcore_jsonEnd, 4},
  });
  // the count query sees the same refusals as a full read
  for (const char* t : {"[1,2,]", "[1 2]", "{\"a\":1,}", "[\"\\q\"]", "[01]"}) {
    const std::string text = t;
    std::vector<mcore_JsonToken> tokens(32);
    mcore_JsonDoc d1, d2;
    const mcore_JsonResult full = mcore_JsonRead(U(text), text.size(), tokens.data(), 32, &d1);
    const mcore_JsonResult query = mcore_JsonRead(U(text), text.size(), nullptr, 0, &d2);
    EXPECT_NE(full.reason, mcore_jsonOk) << t;
    EXPECT_EQ(query.reason, full.reason) << t;
    EXPECT_EQ(query.offset, full.offset) << t;
  }
  const std::string deep = std::string(MCORE_JSON_MAX_DEPTH + 1, '[') + std::string(MCORE_JSON_MAX_DEPTH + 1, ']');
  mcore_JsonDoc d;
  const mcore_JsonResult q = mcore_JsonRead(U(deep), deep.size(), nullptr, 0, &d);
  EXPECT_EQ(q.reason, mcore_jsonDepth);
  EXPECT_EQ(q.offset, MCORE_JSON_MAX_DEPTH);
  // only `length` bytes are read
  const std::string more = "[1]x";
  std::vector<mcore_JsonToken> tokens(4);
  EXPECT_EQ(mcore_JsonRead(U(more), 3, tokens.data(), 4, &d).reason, mcore_jsonOk);
  // a number kept as text, refused only when converted
  const std::string big = "[1e400, -1e400, 1e-400, 3.5e38]";
  mcore_JsonDoc b;
  ASSERT_EQ(mcore_JsonReadAlloc(U(big), big.size(), nullptr, &b).reason, mcore_jsonOk);
  double v = 9;
  float f = 9;
  EXPECT_EQ(mcore_JsonGetDouble(&b, 1, &v), mcore_jsonRange);
  EXPECT_EQ(mcore_JsonGetDouble(&b, 2, &v), mcore_jsonRange);
  EXPECT_EQ(v, 9.0);
  EXPECT_EQ(mcore_JsonGetDouble(&b, 3, &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0u);
  EXPECT_EQ(mcore_JsonGetFloat(&b, 4, &f), mcore_jsonRange);
  EXPECT_EQ(f, 9.0f);
  EXPECT_EQ(mcore_JsonGetDouble(&b, 4, &v), mcore_jsonOk);
  EXPECT_EQ(v, 3.5e38);
  mcore_JsonRelease(&b);
}

TEST(JsonProbe, GetStringEveryCapacity) {
  const std::string text = "\"a\\u00e9\\uD83D\\uDE00\\n\\\\\xE2\x82\xAC\\u0000z\"";
  const std::string want = std::string("a\xC3\xA9\xF0\x9F\x98\x80\n\\\xE2\x82\xAC") + std::string("\0z", 2);
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), nullptr, &doc).reason, mcore_jsonOk);
  for (size_t cap = 0; cap <= want.size() + 2; ++cap) {
    std::vector<char> out(want.size() + 4, '\x33');
    size_t len = 999;
    const mcore_JsonReason r = mcore_JsonGetString(&doc, 0, out.data(), cap, &len);
    EXPECT_EQ(len, want.size()) << cap;
    if (cap < want.size()) {
      EXPECT_EQ(r, mcore_jsonCapacity) << cap;
      for (char c : out) EXPECT_EQ(c, '\x33') << cap;
    } else {
      EXPECT_EQ(r, mcore_jsonOk) << cap;
      EXPECT_EQ(std::string(out.data(), len), want) << cap;
      EXPECT_EQ(out[want.size()], '\x33') << cap;
    }
  }
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, 0, want.data(), want.size()));
  mcore_JsonRelease(&doc);
}

TEST(JsonProbe, FormKeysWithEscapesAndEmptyForms) {
  const std::string text = "[{\"a\\\"b\": 1, \"\\u00e9\": true}, {}, {\"x\": 1}]";
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), nullptr, &doc).reason, mcore_jsonOk);
  const mcore_JsonFormKey keys[] = {{"a\"b", MCORE_JSON_TAKES_NUMBER, 1}, {"\xC3\xA9", MCORE_JSON_TAKES_BOOL, 1}};
  uint32_t found[2] = {0, 0};
  mcore_JsonResult r = mcore_JsonReadForm(&doc, 1, keys, 2, found);
  ASSERT_EQ(r.reason, mcore_jsonOk);
  EXPECT_EQ(found[0], 3u);
  EXPECT_EQ(found[1], 5u);
  // the empty object: both required keys missing, the first reported, offset the object
  const uint32_t empty = doc.tokens[1].next;
  r = mcore_JsonReadForm(&doc, empty, keys, 2, found);
  EXPECT_EQ(r.reason, mcore_jsonFormMissing);
  EXPECT_EQ(r.offset, text.find("{}"));
  EXPECT_EQ(r.key, 0u);
  // an empty form: the empty object passes, a member is unknown
  EXPECT_EQ(mcore_JsonReadForm(&doc, empty, keys, 0, found).reason, mcore_jsonOk);
  const uint32_t withX = doc.tokens[empty].next;
  r = mcore_JsonReadForm(&doc, withX, keys, 0, found);
  EXPECT_EQ(r.reason, mcore_jsonFormUnknown);
  EXPECT_EQ(r.offset, text.find("\"x\""));
  mcore_JsonRelease(&doc);
}


// Documents built by hand (not by the writer): tokens checked against the
// text they name, children walked by `next`, counts, and the document's
// fields after Read and ReadAlloc.
struct Gen {
  uint64_t state;
  uint64_t Next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  void Value(std::string* s, int depth) {
    const uint64_t k = Next() % (depth > 6 ? 6 : 9);
    const char* ws[] = {"", " ", "\n", "\t ", "\r\n  "};
    *s += ws[Next() % 5];
    switch (k) {
      case 0: *s += "null"; break;
      case 1: *s += "true"; break;
      case 2: *s += "false"; break;
      case 3: {
        const char* nums[] = {"0", "-0", "12", "-3.25", "1e5", "2E-3", "0.5e+2", "123456789012345678901234"};
        *s += nums[Next() % 8];
        break;
      }
      case 4:
      case 5: {
        const char* strs[] = {"\"\"", "\"a\"", "\"\\u00e9\\n\"", "\"\xC3\xA9\"", "\"\\\"\"", "\"\\uD83D\\uDE00\""};
        *s += strs[Next() % 6];
        break;
      }
      case 6:
      case 7: {
        *s += "[";
        const int n = static_cast<int>(Next() % 5);
        for (int i = 0; i < n; ++i) {
          if (i) *s += ",";
          Value(s, depth + 1);
        }
        *s += ws[Next() % 5];
        *s += "]";
        break;
      }
      default: {
        *s += "{";
        const int n = static_cast<int>(Next() % 5);
        for (int i = 0; i < n; ++i) {
          if (i) *s += ",";
          *s += ws[Next() % 5];
          *s += "\"k" + std::to_string(i) + "\"" + ws[Next() % 5] + ":";
          Value(s, depth + 1);
        }
        *s += ws[Next() % 5];
        *s += "}";
      }
    }
    *s += ws[Next() % 5];
  }
};

// Checks the value at index i and returns the index after it.
uint32_t CheckValue(const mcore_JsonDoc& d, uint32_t i, const std::string& text) {
  const mcore_JsonToken& t = d.tokens[i];
  const std::string span = text.substr(t.start, t.length);
  switch (t.type) {
    case mcore_jsonNull: EXPECT_EQ(span, "null"); break;
    case mcore_jsonTrue: EXPECT_EQ(span, "true"); break;
    case mcore_jsonFalse: EXPECT_EQ(span, "false"); break;
    case mcore_jsonNumber: {
      double v;
      EXPECT_EQ(mcore_JsonParseDouble(span.data(), span.size(), &v), mcore_jsonOk) << span;
      break;
    }
    case mcore_jsonString:
      EXPECT_EQ(text[t.start - 1], '"');
      EXPECT_EQ(text[t.start + t.length], '"');
      EXPECT_EQ(t.count, span.find('\\') != std::string::npos ? 1u : 0u) << span;
      break;
    case mcore_jsonArray:
    case mcore_jsonObject: {
      EXPECT_EQ(span.front(), t.type == mcore_jsonArray ? '[' : '{');
      EXPECT_EQ(span.back(), t.type == mcore_jsonArray ? ']' : '}');
      uint32_t j = i + 1;
      for (uint32_t c = 0; c < t.count; ++c) {
        if (t.type == mcore_jsonObject) {
          EXPECT_EQ(d.tokens[j].type, static_cast<uint32_t>(mcore_jsonString));
          EXPECT_EQ(d.tokens[j].next, j + 1);
          EXPECT_GT(d.tokens[j].start, t.start);
          ++j;
        }
        EXPECT_GT(d.tokens[j].start, t.start);
        EXPECT_LT(d.tokens[j].start + d.tokens[j].length, t.start + t.length);
        j = CheckValue(d, j, text);
        if (j >= d.count) break;
      }
      EXPECT_EQ(t.next, j) << span;
      return t.next;
    }
    default: ADD_FAILURE() << "type " << t.type;
  }
  EXPECT_EQ(t.next, i + 1);
  return i + 1;
}

TEST(JsonProbe, TokenInvariantsOnHandBuiltDocuments) {
  Gen g{0x2545F4914F6CDD1Dull};
  for (int n = 0; n < 400; ++n) {
    std::string text;
    g.Value(&text, 0);
    mcore_JsonDoc q;
    const mcore_JsonResult count = mcore_JsonRead(U(text), text.size(), nullptr, 0, &q);
    ASSERT_EQ(count.reason, mcore_jsonCapacity) << text;
    std::vector<mcore_JsonToken> tokens(count.needed + 3);
    std::memset(tokens.data(), 0xCD, tokens.size() * sizeof(mcore_JsonToken));
    mcore_JsonDoc d;
    ASSERT_EQ(mcore_JsonRead(U(text), text.size(), tokens.data(), count.needed + 3, &d).reason, mcore_jsonOk)
        << text;
    EXPECT_EQ(d.count, count.needed);
    EXPECT_EQ(d.capacity, count.needed + 3);
    EXPECT_EQ(d.text, U(text));
    EXPECT_EQ(d.length, text.size());
    EXPECT_EQ(d.owned, 0);
    EXPECT_EQ(tokens[count.needed].type, 0xCDCDCDCDu);
    EXPECT_EQ(CheckValue(d, 0, text), d.count) << text;
    EXPECT_EQ(d.tokens[0].next, d.count);
    mcore_JsonDoc a;
    Counting c;
    mcore_JsonAllocator al = {Counting::Alloc, Counting::Free, &c};
    ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), &al, &a).reason, mcore_jsonOk);
    EXPECT_NE(a.owned, 0);
    ASSERT_EQ(a.count, d.count);
    EXPECT_EQ(std::memcmp(a.tokens, d.tokens, d.count * sizeof(mcore_JsonToken)), 0);
    mcore_JsonRelease(&a);
    EXPECT_TRUE(c.live.empty());
    EXPECT_EQ(a.count, 0u);
  }
  // token arrays across every growth boundary of the builder
  for (int n = 0; n < 700; ++n) {
    std::string text = "[";
    for (int i = 0; i < n; ++i) text += i ? ",0" : "0";
    text += "]";
    Counting c;
    mcore_JsonAllocator al = {Counting::Alloc, Counting::Free, &c};
    mcore_JsonDoc a;
    ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), &al, &a).reason, mcore_jsonOk) << n;
    EXPECT_EQ(a.count, static_cast<uint32_t>(n + 1));
    EXPECT_EQ(a.tokens[0].count, static_cast<uint32_t>(n));
    EXPECT_GE(a.capacity, a.count);
    mcore_JsonRelease(&a);
    EXPECT_TRUE(c.live.empty()) << n;
    EXPECT_EQ(c.badSizes, 0) << n;
  }
}


// Every byte below 0x20 in a string and a key: the named escapes for
// \b \f \n \r \t, \u00XX for the rest (hex case not named by the header:
// either accepted); " and \ escaped; / and 0x7F as they are.
TEST(JsonProbe, WriterEscapesEveryControlByte) {
  for (int key = 0; key < 2; ++key) {
    for (int b = 0; b < 0x80; ++b) {
      const char ch = static_cast<char>(b);
      std::string want;
      switch (b) {
        case '\b': want = "\\b"; break;
        case '\f': want = "\\f"; break;
        case '\n': want = "\\n"; break;
        case '\r': want = "\\r"; break;
        case '\t': want = "\\t"; break;
        case '"': want = "\\\""; break;
        case '\\': want = "\\\\"; break;
        default:
          if (b < 0x20) {
            char t[8];
            std::snprintf(t, sizeof t, "\\u%04x", b);
            want = t;
          } else {
            want = std::string(1, ch);
          }
      }
      Counting c;
      mcore_JsonAllocator a = {Counting::Alloc, Counting::Free, &c};
      mcore_JsonWriter w;
      mcore_JsonWriterInit(&w, nullptr, 0, &a);
      const std::string text = std::string("x") + ch + "y";
      if (key) {
        mcore_JsonWriteBeginObject(&w);
        mcore_JsonWriteKey(&w, text.data(), text.size());
        mcore_JsonWriteInt64(&w, 1);
        mcore_JsonWriteEndObject(&w);
      } else {
        mcore_JsonWriteString(&w, text.data(), text.size());
      }
      ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk) << b;
      std::string got(w.buffer, w.length);
      mcore_JsonWriterRelease(&w);
      for (char& g : got) {
        if (g >= 'A' && g <= 'F' && b < 0x20) g = static_cast<char>(g - 'A' + 'a');
      }
      const std::string expect = key ? "{\n  \"x" + want + "y\": 1\n}\n" : "\"x" + want + "y\"\n";
      EXPECT_EQ(got, expect) << b;
      EXPECT_TRUE(c.live.empty());
    }
  }
}


TEST(JsonProbe, DuplicateKeysInBigAndNestedObjects) {
  ExpectAll({
      {"{\"a\":{\"x\":1},\"a\":2}", mcore_jsonDuplicateKey, 13},
      {"{\"x\":{\"a\":1},\"a\":2}", mcore_jsonOk, 0},
      {"{\"a\":{\"a\":{\"a\":1},\"b\":1},\"b\":{\"a\":1}}", mcore_jsonOk, 0},
      {"{\"a\":[{\"b\":1,\"c\":2}],\"b\":[{\"a\":1}],\"c\":{\"c\":{\"c\":1}}}", mcore_jsonOk, 0},
      {"{\"a\":[{\"b\":1,\"b\":2}]}", mcore_jsonDuplicateKey, 13},
      {"{\"ab\":1,\"a\":2,\"abc\":3,\"b\":4}", mcore_jsonOk, 0},
  });
  std::string big = "{";
  // 3000 keys: the duplicate check is quadratic in the member count (see the
  // branch report), so more would make this test slow
  for (int i = 0; i < 3000; ++i) big += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
  EXPECT_EQ(Probe(big + "}", "3000 keys").reason, mcore_jsonOk);
  const std::string dupFirst = big + ",\"k0\":1}";
  mcore_JsonResult r = Probe(dupFirst, "3000 keys + k0");
  EXPECT_EQ(r.reason, mcore_jsonDuplicateKey);
  EXPECT_EQ(r.offset, big.size() + 1);
  const std::string dupEscaped = big + ",\"\\u006B1234\":1}";
  r = Probe(dupEscaped, "3000 keys + escaped k1234");
  EXPECT_EQ(r.reason, mcore_jsonDuplicateKey);
  EXPECT_EQ(r.offset, big.size() + 1);
  // a key found among many, with escapes on the document side
  mcore_JsonDoc d;
  const std::string esc = big + ",\"\\u0078\\u00e9\":7}";
  ASSERT_EQ(mcore_JsonReadAlloc(U(esc), esc.size(), nullptr, &d).reason, mcore_jsonOk);
  const uint32_t i = mcore_JsonFind(&d, 0, "x\xC3\xA9", 3);
  ASSERT_NE(i, MCORE_JSON_NONE);
  int64_t v = 0;
  EXPECT_EQ(mcore_JsonGetInt64(&d, i, &v), mcore_jsonOk);
  EXPECT_EQ(v, 7);
  const uint32_t k = mcore_JsonFind(&d, 0, "k2999", 5);
  ASSERT_NE(k, MCORE_JSON_NONE);
  EXPECT_EQ(mcore_JsonGetInt64(&d, k, &v), mcore_jsonOk);
  EXPECT_EQ(v, 2999);
  mcore_JsonRelease(&d);
}


TEST(JsonProbe, ReleaseAndAt) {
  const std::string text = "[1,{\"a\":2}]";
  std::vector<mcore_JsonToken> tokens(8);
  mcore_JsonDoc d;
  ASSERT_EQ(mcore_JsonRead(U(text), text.size(), tokens.data(), 8, &d).reason, mcore_jsonOk);
  EXPECT_EQ(mcore_JsonAt(&d, 3), &tokens[3]);
  EXPECT_EQ(mcore_JsonAt(&d, 5), nullptr);  // count is 5: indices 0..4
  EXPECT_NE(mcore_JsonAt(&d, 4), nullptr);
  mcore_JsonRelease(&d);  // caller tokens: nothing released, the document empty
  EXPECT_EQ(d.count, 0u);
  EXPECT_EQ(mcore_JsonAt(&d, 0), nullptr);
  mcore_JsonRelease(&d);
  // an owned document: Release gives the block back with its size, once
  Counting c;
  mcore_JsonAllocator a = {Counting::Alloc, Counting::Free, &c};
  mcore_JsonDoc o;
  ASSERT_EQ(mcore_JsonReadAlloc(U(text), text.size(), &a, &o).reason, mcore_jsonOk);
  EXPECT_FALSE(c.live.empty());
  mcore_JsonRelease(&o);
  EXPECT_TRUE(c.live.empty());
  EXPECT_EQ(o.count, 0u);
  mcore_JsonRelease(&o);
  EXPECT_EQ(c.unknownFrees, 0);
  EXPECT_EQ(c.badSizes, 0);
}

TEST(JsonProbe, WriterKeysInOrderWithNul) {
  mcore_JsonReason r;
  const std::string got = Grown(
      [](mcore_JsonWriter* w) {
        mcore_JsonWriteBeginObject(w);
        mcore_JsonWriteKey(w, "z", 1);
        mcore_JsonWriteUint64(w, 0);
        mcore_JsonWriteKey(w, "a\0b", 3);
        mcore_JsonWriteBeginObject(w);
        mcore_JsonWriteEndObject(w);
        mcore_JsonWriteKey(w, "", 0);
        mcore_JsonWriteBeginArray(w);
        mcore_JsonWriteBeginArray(w);
        mcore_JsonWriteEndArray(w);
        mcore_JsonWriteEndArray(w);
        mcore_JsonWriteEndObject(w);
      },
      &r);
  ASSERT_EQ(r, mcore_jsonOk);
  EXPECT_EQ(got, "{\n  \"z\": 0,\n  \"a\\u0000b\": {},\n  \"\": [\n    []\n  ]\n}\n");
}

}  // namespace
