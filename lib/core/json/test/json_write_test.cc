// lib/core/json writer and number conversions: the layout written out by
// hand, escapes, refusals, caller buffers and allocation failures; numbers
// against values derived by hand (bit patterns of IEEE 754 values, the
// ECMAScript Number::toString layout), and write -> read -> write a fixed
// point on seeded random documents.
#include <gtest/gtest.h>

#include <cfloat>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "lib/core/json/test/json_bits.h"

extern "C" {
#include "lib/core/json/json.h"
#include "lib/core/rng.h"
}

namespace {


std::string Fmt(double v) {
  char buf[MCORE_JSON_NUMBER_CHARS];
  return std::string(buf, mcore_JsonFormatDouble(v, buf));
}
std::string Fmt(float v) {
  char buf[MCORE_JSON_NUMBER_CHARS];
  return std::string(buf, mcore_JsonFormatFloat(v, buf));
}

mcore_JsonReason PD(const std::string& s, double* out) { return mcore_JsonParseDouble(s.data(), s.size(), out); }
mcore_JsonReason PF(const std::string& s, float* out) { return mcore_JsonParseFloat(s.data(), s.size(), out); }

TEST(JsonNumber, FormatDouble) {
  EXPECT_EQ(Fmt(0.0), "0");
  EXPECT_EQ(Fmt(-0.0), "-0");
  EXPECT_EQ(Fmt(1.0), "1");
  EXPECT_EQ(Fmt(-1.5), "-1.5");
  EXPECT_EQ(Fmt(0.1), "0.1");
  EXPECT_EQ(Fmt(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(Fmt(123.456), "123.456");
  EXPECT_EQ(Fmt(1e20), "100000000000000000000");
  EXPECT_EQ(Fmt(1e21), "1e+21");
  EXPECT_EQ(Fmt(123e20), "1.23e+22");
  EXPECT_EQ(Fmt(0.000001), "0.000001");
  EXPECT_EQ(Fmt(0.0000012), "0.0000012");
  EXPECT_EQ(Fmt(1e-7), "1e-7");
  EXPECT_EQ(Fmt(1.5e-7), "1.5e-7");
  EXPECT_EQ(Fmt(D(1)), "5e-324");                                   // smallest subnormal
  EXPECT_EQ(Fmt(DBL_MAX), "1.7976931348623157e+308");
  EXPECT_EQ(Fmt(DBL_MIN), "2.2250738585072014e-308");
  EXPECT_EQ(Fmt(9007199254740992.0), "9007199254740992");          // 2^53
  EXPECT_EQ(Fmt(D(0x44B52D02C7E14AF6ull)), "1e+23");                // nearest double to 1e23
  EXPECT_EQ(Fmt(5e-324 * 3), "1.5e-323");
  char buf[MCORE_JSON_NUMBER_CHARS];
  EXPECT_EQ(mcore_JsonFormatDouble(D(0x7FF0000000000000ull), buf), 0u);
  EXPECT_EQ(mcore_JsonFormatDouble(D(0x7FF8000000000000ull), buf), 0u);
}

TEST(JsonNumber, FormatFloat) {
  EXPECT_EQ(Fmt(0.1f), "0.1");
  EXPECT_EQ(Fmt(-0.0f), "-0");
  EXPECT_EQ(Fmt(1.0f / 3.0f), "0.33333334");
  EXPECT_EQ(Fmt(16777216.0f), "16777216");
  EXPECT_EQ(Fmt(FLT_MAX), "3.4028235e+38");
  EXPECT_EQ(Fmt(FLT_MIN), "1.1754944e-38");
  EXPECT_EQ(Fmt(F(1)), "1e-45");  // smallest subnormal
  EXPECT_EQ(Fmt(1e10f), "10000000000");
  EXPECT_EQ(Fmt(0.3f), "0.3");
  EXPECT_EQ(Fmt(F(0x3F800001u)), "1.0000001");
}

TEST(JsonNumber, ParseDouble) {
  double v = 0;
  ASSERT_EQ(PD("0.1", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x3FB999999999999Aull);
  ASSERT_EQ(PD("1e23", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x44B52D02C7E14AF6ull);
  ASSERT_EQ(PD("-0", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x8000000000000000ull);
  ASSERT_EQ(PD("-0.0e-5", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x8000000000000000ull);
  ASSERT_EQ(PD("4.9406564584124654e-324", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 1ull);
  // half the smallest subnormal is 2.4703282292062327208...e-324: a tie to even (0)
  ASSERT_EQ(PD("2.4703282292062327e-324", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0ull);
  ASSERT_EQ(PD("2.4703282292062328e-324", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 1ull);
  ASSERT_EQ(PD("1e-400", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0ull);
  ASSERT_EQ(PD("1.7976931348623157e308", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x7FEFFFFFFFFFFFFFull);
  // the midpoint between DBL_MAX and 2^1024 is 1.797693134862315807937...e308
  ASSERT_EQ(PD("1.7976931348623158e308", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x7FEFFFFFFFFFFFFFull);
  v = 7;
  EXPECT_EQ(PD("1.7976931348623159e308", &v), mcore_jsonRange);
  EXPECT_EQ(PD("1e309", &v), mcore_jsonRange);
  EXPECT_EQ(v, 7);
  // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: to even (2^53)
  ASSERT_EQ(PD("9007199254740993", &v), mcore_jsonOk);
  EXPECT_EQ(v, 9007199254740992.0);
  // one more unit far past the kept digits breaks the tie upwards
  std::string past = "9007199254740993." + std::string(900, '0') + "1";
  ASSERT_EQ(PD(past, &v), mcore_jsonOk);
  EXPECT_EQ(v, 9007199254740994.0);
  ASSERT_EQ(PD("2.2250738585072011e-308", &v), mcore_jsonOk);  // the largest subnormal's neighbour
  EXPECT_EQ(Bits(v), 0x000FFFFFFFFFFFFFull);
  ASSERT_EQ(PD("123456789012345678901234567890", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x45F8EE90FF6C373Eull);
  EXPECT_EQ(PD("01", &v), mcore_jsonNumberForm);
  EXPECT_EQ(PD("1.", &v), mcore_jsonNumberForm);
  EXPECT_EQ(PD(" 1", &v), mcore_jsonNumberForm);
  EXPECT_EQ(PD("", &v), mcore_jsonNumberForm);
  EXPECT_EQ(PD("1e", &v), mcore_jsonNumberForm);
}

TEST(JsonNumber, ParseFloat) {
  float v = 0;
  ASSERT_EQ(PF("0.1", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x3DCCCCCDu);
  ASSERT_EQ(PF("3.4028235e38", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x7F7FFFFFu);
  // FLT_MAX + half its ulp = 2^128 - 2^103 = 340282356779733661637539395458142568448: a tie, to infinity
  v = 5;
  EXPECT_EQ(PF("340282356779733661637539395458142568448", &v), mcore_jsonRange);
  EXPECT_EQ(v, 5);
  ASSERT_EQ(PF("340282356779733661637539395458142568447", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x7F7FFFFFu);
  ASSERT_EQ(PF("1e-45", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 1u);
  // half the smallest subnormal, 2^-150 = 7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625e-46
  ASSERT_EQ(PF("7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625e-46",
               &v),
            mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0u);  // tie to even
  ASSERT_EQ(PF("7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015626e-46",
               &v),
            mcore_jsonOk);
  EXPECT_EQ(Bits(v), 1u);
  // 1 + 2^-24 = 1.000000059604644775390625 is a binary32 tie: to even (1)
  ASSERT_EQ(PF("1.000000059604644775390625", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x3F800000u);
  ASSERT_EQ(PF("1.000000059604644775390626", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x3F800001u);
  // a binary32 tie that binary64 holds exactly, read through the fast path's check: 16777217
  ASSERT_EQ(PF("16777217", &v), mcore_jsonOk);
  EXPECT_EQ(v, 16777216.0f);
  ASSERT_EQ(PF("16777219", &v), mcore_jsonOk);
  EXPECT_EQ(v, 16777220.0f);
  ASSERT_EQ(PF("-1e-60", &v), mcore_jsonOk);
  EXPECT_EQ(Bits(v), 0x80000000u);
}

TEST(JsonNumber, Integers) {
  int64_t i = 3;
  uint64_t u = 3;
  EXPECT_EQ(mcore_JsonParseInt64("-9223372036854775808", 20, &i), mcore_jsonOk);
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_EQ(mcore_JsonParseInt64("9223372036854775807", 19, &i), mcore_jsonOk);
  EXPECT_EQ(i, INT64_MAX);
  i = 3;
  EXPECT_EQ(mcore_JsonParseInt64("9223372036854775808", 19, &i), mcore_jsonRange);
  EXPECT_EQ(mcore_JsonParseInt64("-9223372036854775809", 20, &i), mcore_jsonRange);
  EXPECT_EQ(i, 3);
  EXPECT_EQ(mcore_JsonParseUint64("18446744073709551615", 20, &u), mcore_jsonOk);
  EXPECT_EQ(u, UINT64_MAX);
  EXPECT_EQ(mcore_JsonParseUint64("18446744073709551616", 20, &u), mcore_jsonRange);
  EXPECT_EQ(mcore_JsonParseUint64("-1", 2, &u), mcore_jsonRange);
  EXPECT_EQ(mcore_JsonParseUint64("-0", 2, &u), mcore_jsonOk);
  EXPECT_EQ(u, 0u);
  EXPECT_EQ(mcore_JsonParseInt64("1.0", 3, &i), mcore_jsonNotInteger);
  EXPECT_EQ(mcore_JsonParseInt64("1e2", 3, &i), mcore_jsonNotInteger);
  EXPECT_EQ(mcore_JsonParseInt64("100000000000000000000000", 24, &i), mcore_jsonRange);
  EXPECT_EQ(mcore_JsonParseInt64("0", 1, &i), mcore_jsonOk);
  EXPECT_EQ(i, 0);
  EXPECT_EQ(mcore_JsonParseInt64("1200", 4, &i), mcore_jsonOk);
  EXPECT_EQ(i, 1200);
}

// The suite's i_number_ files parse; here is what the conversions make of them.
TEST(JsonNumber, NumbersOfTheSuiteIFiles) {
  double d = 1;
  EXPECT_EQ(PD("123.456e-789", &d), mcore_jsonOk);
  EXPECT_EQ(d, 0.0);
  EXPECT_EQ(PD("-1e+9999", &d), mcore_jsonRange);
  EXPECT_EQ(PD("1.5e+9999", &d), mcore_jsonRange);
  EXPECT_EQ(PD("123123e100000", &d), mcore_jsonRange);
  EXPECT_EQ(PD("123e-10000000", &d), mcore_jsonOk);
  EXPECT_EQ(d, 0.0);
  EXPECT_EQ(PD("-123123123123123123123123123123", &d), mcore_jsonOk);
  EXPECT_EQ(d, -123123123123123123123123123123.0);
  int64_t i;
  EXPECT_EQ(mcore_JsonParseInt64("100000000000000000000", 21, &i), mcore_jsonRange);
}

std::string Write(void (*body)(mcore_JsonWriter*)) {
  mcore_JsonWriter w;
  mcore_JsonAllocator libc = {nullptr, nullptr, nullptr};
  mcore_JsonWriterInit(&w, nullptr, 0, &libc);
  body(&w);
  EXPECT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
  std::string s(w.buffer, w.length);
  mcore_JsonWriterRelease(&w);
  return s;
}

void Sample(mcore_JsonWriter* w) {
  mcore_JsonWriteBeginObject(w);
  mcore_JsonWriteKey(w, "format", 6);
  mcore_JsonWriteString(w, "maul-anim mirror map", 20);
  mcore_JsonWriteKey(w, "version", 7);
  mcore_JsonWriteInt64(w, 1);
  mcore_JsonWriteKey(w, "translation", 11);
  mcore_JsonWriteBeginArray(w);
  mcore_JsonWriteFloat(w, 0.1f);
  mcore_JsonWriteFloat(w, -2.0f);
  mcore_JsonWriteFloat(w, 1e-7f);
  mcore_JsonWriteEndArray(w);
  mcore_JsonWriteKey(w, "empty", 5);
  mcore_JsonWriteBeginArray(w);
  mcore_JsonWriteEndArray(w);
  mcore_JsonWriteKey(w, "none", 4);
  mcore_JsonWriteBeginObject(w);
  mcore_JsonWriteEndObject(w);
  mcore_JsonWriteKey(w, "nested", 6);
  mcore_JsonWriteBeginArray(w);
  mcore_JsonWriteBeginObject(w);
  mcore_JsonWriteKey(w, "a\"b", 3);
  mcore_JsonWriteNull(w);
  mcore_JsonWriteKey(w, "ok", 2);
  mcore_JsonWriteBool(w, 1);
  mcore_JsonWriteEndObject(w);
  mcore_JsonWriteEndArray(w);
  mcore_JsonWriteEndObject(w);
}

TEST(JsonWrite, Layout) {
  const std::string want =
      "{\n"
      "  \"format\": \"maul-anim mirror map\",\n"
      "  \"version\": 1,\n"
      "  \"translation\": [\n"
      "    0.1,\n"
      "    -2,\n"
      "    1e-7\n"
      "  ],\n"
      "  \"empty\": [],\n"
      "  \"none\": {},\n"
      "  \"nested\": [\n"
      "    {\n"
      "      \"a\\\"b\": null,\n"
      "      \"ok\": true\n"
      "    }\n"
      "  ]\n"
      "}\n";
  EXPECT_EQ(Write(Sample), want);
  EXPECT_EQ(Write([](mcore_JsonWriter* w) { mcore_JsonWriteInt64(w, INT64_MIN); }), "-9223372036854775808\n");
  EXPECT_EQ(Write([](mcore_JsonWriter* w) { mcore_JsonWriteUint64(w, UINT64_MAX); }), "18446744073709551615\n");
}

TEST(JsonWrite, Escapes) {
  const std::string s = Write([](mcore_JsonWriter* w) {
    static const char text[] = "\"\\/\b\f\n\r\t\x01\x1F\x7F\xC3\xA9\xF0\x9F\x98\x80";
    mcore_JsonWriteBeginArray(w);
    mcore_JsonWriteString(w, text, sizeof text - 1);
    mcore_JsonWriteString(w, "\0", 1);
    mcore_JsonWriteEndArray(w);
  });
  EXPECT_EQ(s, "[\n  \"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\x7F\xC3\xA9\xF0\x9F\x98\x80\",\n  \"\\u0000\"\n]\n");
}

TEST(JsonWrite, Refusals) {
  struct Case {
    void (*body)(mcore_JsonWriter*);
    mcore_JsonReason reason;
  } cases[] = {
      {[](mcore_JsonWriter* w) { mcore_JsonWriteDouble(w, D(0x7FF8000000000000ull)); }, mcore_jsonNotFinite},
      {[](mcore_JsonWriter* w) { mcore_JsonWriteFloat(w, F(0xFF800000u)); }, mcore_jsonNotFinite},
      {[](mcore_JsonWriter* w) { mcore_JsonWriteString(w, "\xC0\x80", 2); }, mcore_jsonInvalid},
      {[](mcore_JsonWriter* w) { mcore_JsonWriteString(w, "\xED\xA0\x80", 3); }, mcore_jsonInvalid},
      {[](mcore_JsonWriter* w) {
         mcore_JsonWriteBeginObject(w);
         mcore_JsonWriteNull(w);  // a value without its key
       },
       mcore_jsonInvalid},
      {[](mcore_JsonWriter* w) { mcore_JsonWriteKey(w, "a", 1); }, mcore_jsonInvalid},
      {[](mcore_JsonWriter* w) {
         mcore_JsonWriteBeginArray(w);
         mcore_JsonWriteEndObject(w);
       },
       mcore_jsonInvalid},
      {[](mcore_JsonWriter* w) { mcore_JsonWriteBeginArray(w); }, mcore_jsonInvalid},  // not complete
      {[](mcore_JsonWriter* w) {
         mcore_JsonWriteNull(w);
         mcore_JsonWriteNull(w);  // a second document value
       },
       mcore_jsonInvalid},
      {[](mcore_JsonWriter* w) {
         for (uint32_t i = 0; i <= MCORE_JSON_MAX_DEPTH; ++i) mcore_JsonWriteBeginArray(w);
       },
       mcore_jsonDepth},
  };
  for (const Case& c : cases) {
    mcore_JsonWriter w;
    mcore_JsonAllocator libc = {nullptr, nullptr, nullptr};
    mcore_JsonWriterInit(&w, nullptr, 0, &libc);
    c.body(&w);
    EXPECT_EQ(mcore_JsonWriterFinish(&w), c.reason);
    mcore_JsonWriterRelease(&w);
  }
}

TEST(JsonWrite, CallerBufferAndAllocationFailures) {
  const std::string want = Write(Sample);
  // too small: nothing past the capacity, the length needed reported
  std::vector<char> small(20, '#');
  mcore_JsonWriter w;
  mcore_JsonWriterInit(&w, small.data(), small.size(), nullptr);
  Sample(&w);
  EXPECT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonCapacity);
  EXPECT_EQ(w.length, want.size());
  std::vector<char> exact(want.size());
  mcore_JsonWriterInit(&w, exact.data(), exact.size(), nullptr);
  Sample(&w);
  ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
  EXPECT_EQ(std::string(exact.data(), exact.size()), want);
  // every allocation failing in turn: capacity, and nothing leaked
  struct Counting {
    int failAt, calls;
    long live;
    static void* A(void* u, size_t n) {
      Counting* c = static_cast<Counting*>(u);
      if (c->calls++ == c->failAt) return nullptr;
      c->live += static_cast<long>(n);
      return std::malloc(n);
    }
    static void R(void* u, void* b, size_t n) {
      static_cast<Counting*>(u)->live -= static_cast<long>(n);
      std::free(b);
    }
  };
  auto big = [](mcore_JsonWriter* x) {
    mcore_JsonWriteBeginArray(x);
    for (int i = 0; i < 500; ++i) mcore_JsonWriteDouble(x, i * 0.37);
    mcore_JsonWriteEndArray(x);
  };
  Counting ok = {-1, 0, 0};
  mcore_JsonAllocator a = {Counting::A, Counting::R, &ok};
  mcore_JsonWriterInit(&w, nullptr, 0, &a);
  big(&w);
  ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
  mcore_JsonWriterRelease(&w);
  EXPECT_EQ(ok.live, 0);
  ASSERT_GE(ok.calls, 3);
  for (int n = 0; n < ok.calls; ++n) {
    Counting c = {n, 0, 0};
    mcore_JsonAllocator f = {Counting::A, Counting::R, &c};
    mcore_JsonWriterInit(&w, nullptr, 0, &f);
    big(&w);
    EXPECT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonCapacity) << n;
    mcore_JsonWriterRelease(&w);
    EXPECT_EQ(c.live, 0) << n;
  }
}

// ---- write -> read -> write ----

void RandomValue(mcore_JsonWriter* w, mcore_Rng* rng, int depth) {
  const uint32_t kind = mcore_RngBelow(rng, depth > 5 ? 6 : 8);
  switch (kind) {
    case 0: mcore_JsonWriteNull(w); break;
    case 1: mcore_JsonWriteBool(w, static_cast<int>(mcore_RngBelow(rng, 2))); break;
    case 2: mcore_JsonWriteInt64(w, static_cast<int64_t>(mcore_RngNext(rng)) >> mcore_RngBelow(rng, 64)); break;
    case 3: {
      double v;
      do {
        const uint64_t b = mcore_RngNext(rng);
        std::memcpy(&v, &b, 8);
      } while (!(v - v == 0));
      mcore_JsonWriteDouble(w, v);
      break;
    }
    case 4: {
      static const char* const pieces[] = {"x", "\"", "\\", "\n", "\x02", "\xC3\xA9", "\xF0\x9F\x98\x80", "/"};
      std::string s;
      const uint32_t n = mcore_RngBelow(rng, 8);
      for (uint32_t i = 0; i < n; ++i) s += pieces[mcore_RngBelow(rng, 8)];
      mcore_JsonWriteString(w, s.data(), s.size());
      break;
    }
    case 5: mcore_JsonWriteDouble(w, static_cast<double>(mcore_RngBelow(rng, 100000)) / 1000.0); break;
    case 6: {
      mcore_JsonWriteBeginArray(w);
      const uint32_t n = mcore_RngBelow(rng, 6);
      for (uint32_t i = 0; i < n; ++i) RandomValue(w, rng, depth + 1);
      mcore_JsonWriteEndArray(w);
      break;
    }
    default: {
      mcore_JsonWriteBeginObject(w);
      const uint32_t n = mcore_RngBelow(rng, 6);
      for (uint32_t i = 0; i < n; ++i) {
        const std::string k = "key" + std::to_string(i) + (mcore_RngBelow(rng, 2) ? "\xC3\xA9\\" : "");
        mcore_JsonWriteKey(w, k.data(), k.size());
        RandomValue(w, rng, depth + 1);
      }
      mcore_JsonWriteEndObject(w);
    }
  }
}

// Writes a read document back from its tokens; returns the index after the value.
uint32_t Rewrite(const mcore_JsonDoc* doc, uint32_t t, mcore_JsonWriter* w) {
  const mcore_JsonToken* k = &doc->tokens[t];
  const char* text = reinterpret_cast<const char*>(doc->text) + k->start;
  switch (k->type) {
    case mcore_jsonNull: mcore_JsonWriteNull(w); return t + 1;
    case mcore_jsonFalse: mcore_JsonWriteBool(w, 0); return t + 1;
    case mcore_jsonTrue: mcore_JsonWriteBool(w, 1); return t + 1;
    case mcore_jsonNumber: {
      int64_t i;
      double d;
      const std::string s(text, k->length);
      if (s != "-0" && mcore_JsonParseInt64(text, k->length, &i) == mcore_jsonOk) {
        mcore_JsonWriteInt64(w, i);
      } else {
        EXPECT_EQ(mcore_JsonGetDouble(doc, t, &d), mcore_jsonOk) << s;
        mcore_JsonWriteDouble(w, d);
      }
      return t + 1;
    }
    case mcore_jsonString: {
      std::vector<char> buf(k->length + 1);
      size_t len;
      EXPECT_EQ(mcore_JsonGetString(doc, t, buf.data(), buf.size(), &len), mcore_jsonOk);
      mcore_JsonWriteString(w, buf.data(), len);
      return t + 1;
    }
    case mcore_jsonArray: {
      mcore_JsonWriteBeginArray(w);
      uint32_t i = t + 1;
      for (uint32_t n = 0; n < k->count; ++n) i = Rewrite(doc, i, w);
      mcore_JsonWriteEndArray(w);
      EXPECT_EQ(i, k->next);
      return i;
    }
    default: {
      mcore_JsonWriteBeginObject(w);
      uint32_t i = t + 1;
      for (uint32_t n = 0; n < k->count; ++n) {
        std::vector<char> buf(doc->tokens[i].length + 1);
        size_t len;
        EXPECT_EQ(mcore_JsonGetString(doc, i, buf.data(), buf.size(), &len), mcore_jsonOk);
        mcore_JsonWriteKey(w, buf.data(), len);
        i = Rewrite(doc, i + 1, w);
      }
      mcore_JsonWriteEndObject(w);
      EXPECT_EQ(i, k->next);
      return i;
    }
  }
}

TEST(JsonWrite, WriteReadWriteIsAFixedPoint) {
  mcore_JsonAllocator libc = {nullptr, nullptr, nullptr};
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    mcore_Rng rng;
    mcore_RngSeed(&rng, seed * 7919);
    mcore_JsonWriter w;
    mcore_JsonWriterInit(&w, nullptr, 0, &libc);
    RandomValue(&w, &rng, 0);
    ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
    const std::string first(w.buffer, w.length);
    mcore_JsonWriterRelease(&w);
    mcore_JsonDoc doc;
    ASSERT_EQ(mcore_JsonReadAlloc(reinterpret_cast<const uint8_t*>(first.data()), first.size(), nullptr, &doc).reason,
              mcore_jsonOk)
        << first;
    mcore_JsonWriterInit(&w, nullptr, 0, &libc);
    EXPECT_EQ(Rewrite(&doc, 0, &w), doc.count);
    ASSERT_EQ(mcore_JsonWriterFinish(&w), mcore_jsonOk);
    const std::string second(w.buffer, w.length);
    mcore_JsonWriterRelease(&w);
    mcore_JsonRelease(&doc);
    ASSERT_EQ(first, second) << "seed " << seed;
  }
}

// Every double written reads back to its bits, and a sample of floats too
// (the MPFR tests check the same with "shortest" on many more).
TEST(JsonNumber, RoundTripSample) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 42);
  for (int i = 0; i < 60000; ++i) {
    const uint64_t b = mcore_RngNext(&rng);
    const double d = D(b);
    if (!(d - d == 0)) continue;
    const std::string s = Fmt(d);
    double back = 0;
    ASSERT_EQ(PD(s, &back), mcore_jsonOk) << s;
    ASSERT_EQ(Bits(back), b) << s;
    const float f = F(static_cast<uint32_t>(b));
    if (!(f - f == 0)) continue;
    const std::string t = Fmt(f);
    float fb = 0;
    ASSERT_EQ(PF(t, &fb), mcore_jsonOk) << t;
    ASSERT_EQ(Bits(fb), static_cast<uint32_t>(b)) << t;
  }
}

}  // namespace
