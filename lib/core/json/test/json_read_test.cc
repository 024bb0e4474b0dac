// lib/core/json reader: the JSONTestSuite verdicts, reasons and offsets of
// hand-made wrong texts, every truncation of valid documents, tokens, strings
// after their escapes, the count query, allocation failures and the object
// form helper. Expected values are written out by hand from RFC 8259.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "lib/core/json/json.h"
#include "lib/core/rng.h"
}

namespace {

struct SuiteCase {
  const char* name;
  const char* bytes;
  size_t length;
  int generated;
};

const SuiteCase kSuite[] = {
#include "lib/core/json/test/jsontestsuite.inc"
};

std::string SuiteBytes(const SuiteCase& c) {
  switch (c.generated) {
    case 1: return std::string(100000, '[');
    case 2: {
      std::string s;
      for (int i = 0; i < 50000; ++i) s += "[{\"\":";
      return s + "\n";
    }
    case 3: return std::string(500, '[') + std::string(500, ']');
    default: return std::string(c.bytes, c.length);
  }
}

mcore_JsonResult ReadAll(const std::string& s, mcore_JsonDoc* doc) {
  return mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(s.data()), s.size(), nullptr, doc);
}

mcore_JsonResult Read(const std::string& s) {
  mcore_JsonDoc doc;
  const mcore_JsonResult r = ReadAll(s, &doc);
  if (r.reason == mcore_jsonOk) mcore_JsonRelease(&doc);
  return r;
}

// The i_ files: the reader's documented choice for each. Numbers are kept as
// text, so every i_number_ document parses (the conversions then refuse what
// overflows, see NumbersOfTheSuiteIFiles); every unpaired surrogate, invalid
// UTF-8, UTF-16, byte order mark or nesting past MCORE_JSON_MAX_DEPTH (256)
// is refused.
bool IAccepted(const std::string& name) { return name.rfind("i_number_", 0) == 0; }

// y_ files the strict reader refuses: duplicate keys (the rule wins
// over the suite's "must accept").
bool YRefused(const std::string& name) {
  return name == "y_object_duplicated_key" || name == "y_object_duplicated_key_and_value";
}

TEST(JsonRead, JsonTestSuiteVerdicts) {
  int y = 0, n = 0, i = 0;
  for (const SuiteCase& c : kSuite) {
    const std::string name = c.name;
    const mcore_JsonResult r = Read(SuiteBytes(c));
    bool expectOk;
    if (name[0] == 'y') {
      expectOk = !YRefused(name);
      ++y;
    } else if (name[0] == 'n') {
      expectOk = false;
      ++n;
    } else {
      expectOk = IAccepted(name);
      ++i;
    }
    EXPECT_EQ(r.reason == mcore_jsonOk, expectOk) << name << " reason " << r.reason << " at " << r.offset;
  }
  EXPECT_EQ(y, 95);
  EXPECT_EQ(n, 191);
  EXPECT_EQ(i, 35);
}

TEST(JsonRead, SuiteReasons) {
  std::map<std::string, std::pair<mcore_JsonReason, size_t>> want = {
      {"n_structure_100000_opening_arrays", {mcore_jsonDepth, 256}},
      {"i_structure_500_nested_arrays", {mcore_jsonDepth, 256}},
      {"y_object_duplicated_key", {mcore_jsonDuplicateKey, 9}},
      {"n_number_-01", {mcore_jsonNumberForm, 3}},
      {"n_structure_no_data", {mcore_jsonEnd, 0}},
      {"n_array_extra_comma", {mcore_jsonSyntax, 4}},
      {"i_structure_UTF-8_BOM_empty_object", {mcore_jsonSyntax, 0}},
      {"i_string_lone_second_surrogate", {mcore_jsonEscape, 2}},
      {"i_string_overlong_sequence_2_bytes", {mcore_jsonUtf8, 2}},
      {"n_string_unescaped_tab", {mcore_jsonControl, 2}},
      {"n_structure_array_trailing_garbage", {mcore_jsonTrailing, 3}},
      {"n_string_escape_x", {mcore_jsonEscape, 3}},
  };
  for (const SuiteCase& c : kSuite) {
    auto it = want.find(c.name);
    if (it == want.end()) continue;
    const mcore_JsonResult r = Read(SuiteBytes(c));
    EXPECT_EQ(r.reason, it->second.first) << c.name;
    EXPECT_EQ(r.offset, it->second.second) << c.name;
    want.erase(it);
  }
  EXPECT_TRUE(want.empty());
}

TEST(JsonRead, ReasonsAndOffsets) {
  struct Bad {
    const char* text;
    mcore_JsonReason reason;
    size_t offset;
  } bad[] = {
      {"", mcore_jsonEnd, 0},
      {"   ", mcore_jsonEnd, 3},
      {"[1,]", mcore_jsonSyntax, 3},
      {"{\"a\":1,}", mcore_jsonSyntax, 7},
      {"[01]", mcore_jsonNumberForm, 2},
      {"[1.]", mcore_jsonNumberForm, 3},
      {"[1.e5]", mcore_jsonNumberForm, 3},
      {"[-]", mcore_jsonNumberForm, 2},
      {"[1e]", mcore_jsonNumberForm, 3},
      {"[+1]", mcore_jsonSyntax, 1},
      {"[NaN]", mcore_jsonSyntax, 1},
      {"[Infinity]", mcore_jsonSyntax, 1},
      {"[tru]", mcore_jsonSyntax, 4},
      {"[nul", mcore_jsonEnd, 4},
      {"// c\n1", mcore_jsonSyntax, 0},
      {"[1]/**/", mcore_jsonTrailing, 3},
      {"{\"a\" 1}", mcore_jsonSyntax, 5},
      {"{1:1}", mcore_jsonSyntax, 1},
      {"{\"a\":1,\"b\":2,\"a\":3}", mcore_jsonDuplicateKey, 13},
      {"{\"a\":1,\"\\u0061\":3}", mcore_jsonDuplicateKey, 7},
      {"{\"a\":{\"a\":1},\"b\":{\"a\":2}}", mcore_jsonOk, 0},
      {"[\"\\uD800\"]", mcore_jsonEscape, 8},
      {"[\"\\uD800\\n\"]", mcore_jsonEscape, 9},
      {"[\"\\uD800\\u0041\"]", mcore_jsonEscape, 8},
      {"[\"\\uDC00\"]", mcore_jsonEscape, 2},
      {"[\"\\uD83D\\uDE00\"]", mcore_jsonOk, 0},
      {"[\"\\u12G4\"]", mcore_jsonEscape, 6},
      {"[\"\\q\"]", mcore_jsonEscape, 3},
      {"[\"a\x01\"]", mcore_jsonControl, 3},
      {"[\"\xC0\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xE0\x80\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xED\xA0\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xF4\x90\x80\x80\"]", mcore_jsonUtf8, 2},
      {"[\"\xF0\x9F\x98\x80\"]", mcore_jsonOk, 0},
      {"[\"\xE2\x82\"]", mcore_jsonUtf8, 2},
      {"[1 2]", mcore_jsonSyntax, 3},
      {"1 2", mcore_jsonTrailing, 2},
      {"\xEF\xBB\xBF{}", mcore_jsonSyntax, 0},
      {"[1]\x0B", mcore_jsonTrailing, 3},
      {" \t\r\n[ \t\r\n1 \t\r\n] \t\r\n", mcore_jsonOk, 0},
  };
  for (const Bad& b : bad) {
    const mcore_JsonResult r = Read(b.text);
    EXPECT_EQ(r.reason, b.reason) << b.text;
    if (b.reason != mcore_jsonOk) {
      EXPECT_EQ(r.offset, b.offset) << b.text;
    }
  }
  // nesting: exactly the bound parses, one more is refused at its bracket
  std::string deep = std::string(MCORE_JSON_MAX_DEPTH, '[') + std::string(MCORE_JSON_MAX_DEPTH, ']');
  EXPECT_EQ(Read(deep).reason, mcore_jsonOk);
  std::string deeper = std::string(MCORE_JSON_MAX_DEPTH + 1, '[') + std::string(MCORE_JSON_MAX_DEPTH + 1, ']');
  const mcore_JsonResult r = Read(deeper);
  EXPECT_EQ(r.reason, mcore_jsonDepth);
  EXPECT_EQ(r.offset, MCORE_JSON_MAX_DEPTH);
  // a NUL byte is refused in and out of strings
  EXPECT_EQ(Read(std::string("[\"\0\"]", 5)).reason, mcore_jsonControl);
  EXPECT_EQ(Read(std::string("[1]\0", 4)).reason, mcore_jsonTrailing);
}

TEST(JsonRead, Tokens) {
  const std::string text = "{\"a\": [1, -2.5e3, \"x\\ny\"], \"b\": {}, \"c\": [true, false, null]}";
  mcore_JsonToken tokens[32];
  mcore_JsonDoc doc;
  mcore_JsonResult r = mcore_JsonRead(reinterpret_cast<const uint8_t*>(text.data()), text.size(), tokens, 32, &doc);
  ASSERT_EQ(r.reason, mcore_jsonOk);
  // object, "a", [, 1, -2.5e3, "x\ny", "b", {}, "c", [, true, false, null
  ASSERT_EQ(doc.count, 13u);
  const uint32_t types[13] = {mcore_jsonObject, mcore_jsonString, mcore_jsonArray, mcore_jsonNumber, mcore_jsonNumber,
                              mcore_jsonString, mcore_jsonString, mcore_jsonObject, mcore_jsonString, mcore_jsonArray,
                              mcore_jsonTrue, mcore_jsonFalse, mcore_jsonNull};
  for (int i = 0; i < 13; ++i) EXPECT_EQ(tokens[i].type, types[i]) << i;
  EXPECT_EQ(tokens[0].count, 3u);
  EXPECT_EQ(tokens[0].next, 13u);
  EXPECT_EQ(tokens[0].length, text.size());
  EXPECT_EQ(tokens[2].count, 3u);
  EXPECT_EQ(tokens[2].next, 6u);
  EXPECT_EQ(tokens[7].count, 0u);
  EXPECT_EQ(tokens[7].next, 8u);
  EXPECT_EQ(std::string(text.data() + tokens[4].start, tokens[4].length), "-2.5e3");
  EXPECT_EQ(tokens[5].count, 1u);  // holds an escape
  EXPECT_EQ(tokens[1].count, 0u);
  EXPECT_EQ(mcore_JsonFind(&doc, 0, "c", 1), 9u);
  EXPECT_EQ(mcore_JsonFind(&doc, 0, "d", 1), MCORE_JSON_NONE);
  EXPECT_EQ(mcore_JsonFind(&doc, 2, "a", 1), MCORE_JSON_NONE);  // not an object
  double d = 0;
  EXPECT_EQ(mcore_JsonGetDouble(&doc, 4, &d), mcore_jsonOk);
  EXPECT_EQ(d, -2500.0);
  int64_t i64 = 0;
  EXPECT_EQ(mcore_JsonGetInt64(&doc, 3, &i64), mcore_jsonOk);
  EXPECT_EQ(i64, 1);
  EXPECT_EQ(mcore_JsonGetInt64(&doc, 4, &i64), mcore_jsonNotInteger);
  EXPECT_EQ(mcore_JsonGetDouble(&doc, 5, &d), mcore_jsonInvalid);
  char buf[8];
  size_t len = 0;
  EXPECT_EQ(mcore_JsonGetString(&doc, 5, buf, 2, &len), mcore_jsonCapacity);
  EXPECT_EQ(len, 3u);
  EXPECT_EQ(mcore_JsonGetString(&doc, 5, buf, sizeof buf, &len), mcore_jsonOk);
  EXPECT_EQ(std::string(buf, len), "x\ny");
  EXPECT_EQ(mcore_JsonGetString(&doc, 3, buf, sizeof buf, &len), mcore_jsonInvalid);
  // the count query, and too few tokens leaving doc unchanged
  mcore_JsonDoc other;
  std::memset(&other, 0x5A, sizeof other);
  mcore_JsonDoc before = other;
  r = mcore_JsonRead(reinterpret_cast<const uint8_t*>(text.data()), text.size(), nullptr, 0, &other);
  EXPECT_EQ(r.reason, mcore_jsonCapacity);
  EXPECT_EQ(r.needed, 13u);
  r = mcore_JsonRead(reinterpret_cast<const uint8_t*>(text.data()), text.size(), tokens, 12, &other);
  EXPECT_EQ(r.reason, mcore_jsonCapacity);
  EXPECT_EQ(std::memcmp(&other, &before, sizeof other), 0);
  EXPECT_EQ(mcore_JsonRead(nullptr, 3, tokens, 32, &doc).reason, mcore_jsonInvalid);
  EXPECT_EQ(mcore_JsonRead(reinterpret_cast<const uint8_t*>("1"), 1, nullptr, 4, &doc).reason, mcore_jsonInvalid);
}

TEST(JsonRead, StringsAfterEscapes) {
  const std::string text =
      "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0041\\u00e9\\u20AC\\uD834\\uDD1E\", \"\\u0000\", \"caf\xC3\xA9\"]";
  mcore_JsonDoc doc;
  ASSERT_EQ(ReadAll(text, &doc).reason, mcore_jsonOk);
  char buf[32];
  size_t len;
  ASSERT_EQ(mcore_JsonGetString(&doc, 1, buf, sizeof buf, &len), mcore_jsonOk);
  EXPECT_EQ(std::string(buf, len), "\"\\/\b\f\n\r\t");
  ASSERT_EQ(mcore_JsonGetString(&doc, 2, buf, sizeof buf, &len), mcore_jsonOk);
  EXPECT_EQ(std::string(buf, len), "A\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E");
  ASSERT_EQ(mcore_JsonGetString(&doc, 3, buf, sizeof buf, &len), mcore_jsonOk);
  EXPECT_EQ(std::string(buf, len), std::string("\0", 1));
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, 4, "caf\xC3\xA9", 5));
  EXPECT_TRUE(mcore_JsonStringEquals(&doc, 2, "A\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E", 10));
  EXPECT_FALSE(mcore_JsonStringEquals(&doc, 2, "A\xC3\xA9", 3));
  mcore_JsonRelease(&doc);
}

// An allocator that fails its Nth allocation and counts what is live.
struct Counting {
  int failAt = -1;
  int calls = 0;
  long live = 0;
  static void* Alloc(void* user, size_t size) {
    Counting* c = static_cast<Counting*>(user);
    if (c->calls++ == c->failAt) return nullptr;
    c->live += static_cast<long>(size);
    return std::malloc(size);
  }
  static void Free(void* user, void* block, size_t size) {
    static_cast<Counting*>(user)->live -= static_cast<long>(size);
    std::free(block);
  }
};

std::string BigArray(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ",{\"k\":" : "{\"k\":") + std::to_string(i) + "}";
  return s + "]";
}

TEST(JsonRead, AllocationFailureAtEveryIndex) {
  const std::string text = BigArray(700);  // 2101 tokens: several growths
  Counting ok;
  mcore_JsonAllocator a = {Counting::Alloc, Counting::Free, &ok};
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(text.data()), text.size(), &a, &doc).reason,
            mcore_jsonOk);
  EXPECT_EQ(doc.count, 2101u);
  mcore_JsonRelease(&doc);
  EXPECT_EQ(ok.live, 0);
  const int calls = ok.calls;
  EXPECT_GE(calls, 4);
  for (int n = 0; n < calls; ++n) {
    Counting c;
    c.failAt = n;
    mcore_JsonAllocator f = {Counting::Alloc, Counting::Free, &c};
    mcore_JsonDoc d2;
    std::memset(&d2, 0x33, sizeof d2);
    const mcore_JsonResult r =
        mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(text.data()), text.size(), &f, &d2);
    EXPECT_EQ(r.reason, mcore_jsonCapacity) << n;
    EXPECT_EQ(c.live, 0) << n;
    EXPECT_EQ(reinterpret_cast<unsigned char*>(&d2)[0], 0x33) << n;
  }
  mcore_JsonAllocator half = {Counting::Alloc, nullptr, &ok};
  EXPECT_EQ(mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>("1"), 1, &half, &doc).reason, mcore_jsonInvalid);
}

// Random documents written by the writer: every truncation inside the value
// is refused with mcore_jsonEnd at the truncated length.
void RandomValue(mcore_JsonWriter* w, mcore_Rng* rng, int depth);

void RandomString(std::string* s, mcore_Rng* rng) {
  static const char* const pieces[] = {"a", "Z", "\"", "\\", "/", "\n", "\t", "\x01", "\x1F", " ", "\xC3\xA9",
                                       "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x7F", "0", "key"};
  const uint32_t n = mcore_RngBelow(rng, 6);
  for (uint32_t i = 0; i < n; ++i) *s += pieces[mcore_RngBelow(rng, 16)];
}

void RandomValue(mcore_JsonWriter* w, mcore_Rng* rng, int depth) {
  const uint32_t kind = mcore_RngBelow(rng, depth > 4 ? 6 : 9);
  switch (kind) {
    case 0: mcore_JsonWriteNull(w); break;
    case 1: mcore_JsonWriteBool(w, static_cast<int>(mcore_RngBelow(rng, 2))); break;
    case 2: mcore_JsonWriteInt64(w, static_cast<int64_t>(mcore_RngNext(rng))); break;
    case 3: {
      double v;
      uint64_t bits;
      do {
        bits = mcore_RngNext(rng);
        std::memcpy(&v, &bits, sizeof v);
      } while (!(v - v == 0));  // finite
      if (mcore_RngBelow(rng, 3) == 0) v = static_cast<double>(mcore_RngBelow(rng, 2000)) / 16.0 - 50.0;
      mcore_JsonWriteDouble(w, v);
      break;
    }
    case 4:
    case 5: {
      std::string s;
      RandomString(&s, rng);
      mcore_JsonWriteString(w, s.data(), s.size());
      break;
    }
    case 6:
    case 7: {
      mcore_JsonWriteBeginArray(w);
      const uint32_t n = mcore_RngBelow(rng, 5);
      for (uint32_t i = 0; i < n; ++i) RandomValue(w, rng, depth + 1);
      mcore_JsonWriteEndArray(w);
      break;
    }
    default: {
      mcore_JsonWriteBeginObject(w);
      const uint32_t n = mcore_RngBelow(rng, 5);
      for (uint32_t i = 0; i < n; ++i) {
        std::string k = "k" + std::to_string(i);
        RandomString(&k, rng);
        mcore_JsonWriteKey(w, k.data(), k.size());
        RandomValue(w, rng, depth + 1);
      }
      mcore_JsonWriteEndObject(w);
    }
  }
}

std::string RandomDocument(uint64_t seed) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, seed);
  mcore_JsonWriter w;
  mcore_JsonAllocator libc = {nullptr, nullptr, nullptr};
  mcore_JsonWriterInit(&w, nullptr, 0, &libc);
  if (mcore_RngBelow(&rng, 2)) mcore_JsonWriteBeginArray(&w);
  else mcore_JsonWriteBeginObject(&w);
  const bool array = w.kinds[0] == 1;
  const uint32_t n = 1 + mcore_RngBelow(&rng, 6);
  for (uint32_t i = 0; i < n; ++i) {
    if (!array) {
      const std::string k = "m" + std::to_string(i);
      mcore_JsonWriteKey(&w, k.data(), k.size());
    }
    RandomValue(&w, &rng, 1);
  }
  if (array) mcore_JsonWriteEndArray(&w);
  else mcore_JsonWriteEndObject(&w);
  EXPECT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
  std::string s(w.buffer, w.length);
  mcore_JsonWriterRelease(&w);
  return s;
}

TEST(JsonRead, EveryTruncationRefusedAtItsEnd) {
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const std::string doc = RandomDocument(seed);
    ASSERT_EQ(Read(doc).reason, mcore_jsonOk) << doc;
    size_t end = doc.size();
    while (end > 0 && (doc[end - 1] == '\n' || doc[end - 1] == ' ')) --end;
    for (size_t cut = 0; cut < end; ++cut) {
      const mcore_JsonResult r = Read(doc.substr(0, cut));
      ASSERT_EQ(r.reason, mcore_jsonEnd) << "seed " << seed << " cut " << cut << "\n" << doc.substr(0, cut);
      ASSERT_EQ(r.offset, cut);
    }
  }
}

TEST(JsonRead, FormHelper) {
  const std::string text = "{\"name\": \"hip\", \"weight\": null, \"tags\": [1, 2]}";
  mcore_JsonDoc doc;
  ASSERT_EQ(ReadAll(text, &doc).reason, mcore_jsonOk);
  const mcore_JsonFormKey keys[] = {
      {"name", MCORE_JSON_TAKES_STRING, 1},
      {"weight", MCORE_JSON_TAKES_NUMBER | MCORE_JSON_TAKES_NULL, 0},
      {"tags", MCORE_JSON_TAKES_ARRAY, 0},
      {"speed", MCORE_JSON_TAKES_NUMBER, 0},
  };
  uint32_t found[4];
  mcore_JsonResult r = mcore_JsonReadForm(&doc, 0, keys, 4, found);
  ASSERT_EQ(r.reason, mcore_jsonOk);
  EXPECT_EQ(found[0], 2u);
  EXPECT_EQ(doc.tokens[found[1]].type, static_cast<uint32_t>(mcore_jsonNull));  // null, not left out
  EXPECT_EQ(found[2], 6u);
  EXPECT_EQ(found[3], MCORE_JSON_NONE);  // left out
  // an unknown member: its key's quote
  uint32_t untouched[3] = {7, 7, 7};
  r = mcore_JsonReadForm(&doc, 0, keys, 3, untouched);
  EXPECT_EQ(r.reason, mcore_jsonOk);
  r = mcore_JsonReadForm(&doc, 0, keys + 1, 3, found);
  EXPECT_EQ(r.reason, mcore_jsonFormUnknown);
  EXPECT_EQ(r.offset, 1u);
  // a value of another type: the value's first byte and the key's index
  const mcore_JsonFormKey strictWeight[] = {
      {"name", MCORE_JSON_TAKES_STRING, 1},
      {"weight", MCORE_JSON_TAKES_NUMBER, 0},
      {"tags", MCORE_JSON_TAKES_ARRAY, 0},
  };
  uint32_t keep[3] = {9, 9, 9};
  r = mcore_JsonReadForm(&doc, 0, strictWeight, 3, keep);
  EXPECT_EQ(r.reason, mcore_jsonFormType);
  EXPECT_EQ(r.offset, text.find("null"));
  EXPECT_EQ(r.key, 1u);
  EXPECT_EQ(keep[0], 9u);  // found untouched on a refusal
  // a required key left out
  const mcore_JsonFormKey needsSpeed[] = {
      {"name", MCORE_JSON_TAKES_STRING, 1},  {"weight", MCORE_JSON_TAKES_NUMBER | MCORE_JSON_TAKES_NULL, 0},
      {"tags", MCORE_JSON_TAKES_ARRAY, 0},   {"speed", MCORE_JSON_TAKES_NUMBER, 1},
  };
  r = mcore_JsonReadForm(&doc, 0, needsSpeed, 4, found);
  EXPECT_EQ(r.reason, mcore_jsonFormMissing);
  EXPECT_EQ(r.key, 3u);
  EXPECT_EQ(r.offset, 0u);
  // a key without its name is an invalid argument
  const mcore_JsonFormKey unnamed[] = {{nullptr, MCORE_JSON_TAKES_STRING, 0}};
  EXPECT_EQ(mcore_JsonReadForm(&doc, 0, unnamed, 1, found).reason, mcore_jsonInvalid);
  // not an object
  r = mcore_JsonReadForm(&doc, 6, keys, 4, found);
  EXPECT_EQ(r.reason, mcore_jsonFormType);
  EXPECT_EQ(r.offset, text.find('['));
  mcore_JsonRelease(&doc);
}

}  // namespace

// -- Duplicate keys in large objects -------------------------------------------------
// Objects past the short scan go through a hash table (json_read.c). The
// first duplicate in text order must be the one reported, in any nesting,
// with escaped spellings, whether the table lives in the reader (a caller's
// array) or grows from the allocator; checked against a plain pairwise
// search written here.
namespace dupkeys {

struct Doc {
  std::string text;
  size_t firstDuplicate = SIZE_MAX;  // offset of the first key equal to an earlier one of its object
};

// A key's text after its escapes (the documents here use only \u00XX for ASCII).
std::string Unescaped(const std::string& spelled) {
  std::string out;
  for (size_t i = 0; i < spelled.size(); ++i) {
    if (spelled[i] == '\\') {
      out += (char)std::strtol(spelled.substr(i + 2, 4).c_str(), nullptr, 16);
      i += 5;
    } else {
      out += spelled[i];
    }
  }
  return out;
}

// Appends an object of `keys` members drawn from a small name pool (so
// repeats happen when `dupChance` allows them), some spelled with escapes,
// values nested objects (of at most 40 members) at random.
void Object(mcore_Rng* rng, Doc* d, uint32_t keys, uint32_t pool, uint32_t depth) {
  std::vector<std::string> seen;
  d->text += '{';
  for (uint32_t m = 0; m < keys; ++m) {
    if (m) d->text += ',';
    std::string name = "k" + std::to_string(mcore_RngBelow(rng, pool));
    std::string spelled = name;
    if (mcore_RngBelow(rng, 4) == 0) {
      char esc[8];
      snprintf(esc, sizeof esc, "\\u%04x", (unsigned)name[0]);
      spelled = esc + name.substr(1);
    }
    const size_t at = d->text.size();
    const std::string plain = Unescaped(spelled);
    bool dup = false;
    for (const std::string& s : seen) dup |= s == plain;
    if (dup && at < d->firstDuplicate) d->firstDuplicate = at;
    seen.push_back(plain);
    d->text += '"' + spelled + "\":";
    if (depth > 0 && mcore_RngBelow(rng, 8) == 0)
      Object(rng, d, 1 + mcore_RngBelow(rng, keys < 40 ? keys : 40), pool, depth - 1);
    else
      d->text += std::to_string(m);
  }
  d->text += '}';
}

}  // namespace dupkeys

TEST(JsonRead, DuplicateKeysInLargeObjectsAgreeWithAPairwiseSearch) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 0xD0B1E5u);
  int refused = 0, accepted = 0;
  for (int round = 0; round < 120; ++round) {
    dupkeys::Doc d;
    const uint32_t keys = 1 + mcore_RngBelow(&rng, round < 60 ? 40 : 3000);
    // A pool far larger than the keys gives documents without repeats.
    const uint32_t pool = mcore_RngBelow(&rng, 2) ? keys * 64 + 64 : keys * 2 + 1;
    dupkeys::Object(&rng, &d, keys, pool, 2);
    const uint8_t* text = (const uint8_t*)d.text.data();
    mcore_JsonDoc doc, caller;
    mcore_JsonResult r = mcore_JsonReadAlloc(text, d.text.size(), nullptr, &doc);
    mcore_JsonResult q = mcore_JsonRead(text, d.text.size(), nullptr, 0, &caller);
    std::vector<mcore_JsonToken> tokens(q.needed + 1);
    mcore_JsonResult c = mcore_JsonRead(text, d.text.size(), tokens.data(), (uint32_t)tokens.size(), &caller);
    if (d.firstDuplicate == SIZE_MAX) {
      ASSERT_EQ(r.reason, mcore_jsonOk) << round;
      ASSERT_EQ(c.reason, mcore_jsonOk) << round;
      accepted++;
    } else {
      ASSERT_EQ(r.reason, mcore_jsonDuplicateKey) << round;
      EXPECT_EQ(r.offset, d.firstDuplicate) << round;
      ASSERT_EQ(c.reason, mcore_jsonDuplicateKey) << round;
      EXPECT_EQ(c.offset, d.firstDuplicate) << round;
      refused++;
    }
    if (r.reason == mcore_jsonOk) mcore_JsonRelease(&doc);
  }
  EXPECT_GT(refused, 20);
  EXPECT_GT(accepted, 20);
}

// One object of 100000 distinct keys, then the same with its last key
// repeating the first, through mcore_JsonReadAlloc: the table grows from the
// allocator past the reader's own slots. (A caller's array has only the
// reader's slots: past them the keys are scanned, as the random documents
// of 3000 keys above check.)
TEST(JsonRead, OneObjectOfManyKeys) {
  for (int withDup = 0; withDup < 2; ++withDup) {
    std::string text = "{";
    const int n = 100000;
    size_t dupAt = 0;
    for (int k = 0; k < n; ++k) {
      if (k) text += ',';
      if (withDup && k == n - 1) dupAt = text.size();
      text += "\"key" + std::to_string(withDup && k == n - 1 ? 0 : k) + "\":" + std::to_string(k);
    }
    text += '}';
    mcore_JsonDoc doc;
    mcore_JsonResult r = mcore_JsonReadAlloc((const uint8_t*)text.data(), text.size(), nullptr, &doc);
    if (withDup) {
      EXPECT_EQ(r.reason, mcore_jsonDuplicateKey);
      EXPECT_EQ(r.offset, dupAt);
    } else {
      ASSERT_EQ(r.reason, mcore_jsonOk);
      EXPECT_EQ(doc.count, 1u + 2u * n);
      mcore_JsonRelease(&doc);
    }
  }
}

// The key table grows from the allocator too: a failure at any allocation
// of a read of one large object is mcore_jsonCapacity with every block
// given back (and the same read with no failure succeeds).
TEST(JsonRead, LargeObjectAllocationFailureAtEveryIndex) {
  std::string text = "{";
  for (int k = 0; k < 5000; ++k) text += (k ? ",\"" : "\"") + std::to_string(k) + "\":[" + std::to_string(k) + "]";
  text += '}';
  struct Counting {
    int failAt = -1, calls = 0;
    size_t live = 0;
  };
  mcore_JsonAllocator a;
  a.allocate = [](void* user, size_t size) -> void* {
    Counting* c = (Counting*)user;
    if (c->calls++ == c->failAt) return nullptr;
    c->live += size;
    return malloc(size);
  };
  a.release = [](void* user, void* block, size_t size) {
    ((Counting*)user)->live -= size;
    free(block);
  };
  Counting whole;
  a.user = &whole;
  mcore_JsonDoc doc;
  ASSERT_EQ(mcore_JsonReadAlloc((const uint8_t*)text.data(), text.size(), &a, &doc).reason, mcore_jsonOk);
  mcore_JsonRelease(&doc);
  EXPECT_EQ(whole.live, 0u);
  ASSERT_GT(whole.calls, 10);  // the tokens' growth and the table's
  for (int i = 0; i < whole.calls; ++i) {
    Counting c;
    c.failAt = i;
    a.user = &c;
    EXPECT_EQ(mcore_JsonReadAlloc((const uint8_t*)text.data(), text.size(), &a, &doc).reason, mcore_jsonCapacity) << i;
    EXPECT_EQ(c.live, 0u) << i;
  }
}
