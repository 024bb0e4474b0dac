// lib/core/json numbers against MPFR. The reference reading of a decimal is
// mpfr_strtofr at the format's precision and exponent range followed by
// mpfr_subnormalize (one correct rounding, ties to even, subnormals and
// overflow included). A written number must read back (through our reader
// and MPFR's) to the same bits, be shortest (neither (n-1)-digit decimal next
// to the value, MPFR's round-down and round-up, reads back to it) and be the
// nearest of the n-digit ones that do (MPFR's round-to-nearest-even digits,
// when they read back).
//
// Binary32: every float of a dense sweep, every 6151st bit pattern by
// default, each bit pattern with MAUL_JSON_F32_STRIDE=1 (the exhaustive 2^32:
// hours). Binary64: 10^6 edge-heavy decimals read (MAUL_JSON_F64_COUNT sets
// the count: 10^7 for the full run) plus 2 * 10^5 doubles written.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cstdint>
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


struct Format {
  mpfr_prec_t prec;
  mpfr_exp_t emin, emax;
};
const Format kF32 = {24, -148, 128};
const Format kF64 = {53, -1073, 1024};

// MPFR's correctly rounded reading of s; *inf set when it overflows.
void RefRead(const Format& f, const std::string& s, mpfr_t out) {
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(f.emin);
  mpfr_set_emax(f.emax);
  mpfr_set_prec(out, f.prec);
  int inex = mpfr_strtofr(out, s.c_str(), nullptr, 10, MPFR_RNDN);
  inex = mpfr_subnormalize(out, inex, MPFR_RNDN);
  (void)inex;
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
}

float RefFloat(const std::string& s) {
  mpfr_t x;
  mpfr_init2(x, 24);
  RefRead(kF32, s, x);
  const float v = mpfr_get_flt(x, MPFR_RNDN);
  mpfr_clear(x);
  return v;
}

double RefDouble(const std::string& s) {
  mpfr_t x;
  mpfr_init2(x, 53);
  RefRead(kF64, s, x);
  const double v = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  return v;
}

// The significant digits of a written number (no sign, point, exponent,
// leading or trailing zeros).
std::string Digits(const std::string& s) {
  std::string d;
  for (char c : s) {
    if (c == 'e') break;
    if (c >= '0' && c <= '9') d += c;
  }
  const size_t a = d.find_first_not_of('0');
  if (a == std::string::npos) return "0";
  d = d.substr(a);
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  return d;
}

// The n-digit decimal of x rounded as rnd, as text and as its digits.
std::string Decimal(mpfr_t x, int n, mpfr_rnd_t rnd, std::string* digits) {
  std::vector<char> buf(static_cast<size_t>(n) + 8);
  mpfr_exp_t e;
  mpfr_get_str(buf.data(), &e, 10, static_cast<size_t>(n), x, rnd);
  std::string s = buf.data();
  std::string sign;
  if (!s.empty() && s[0] == '-') {
    sign = "-";
    s = s.substr(1);
  }
  if (digits != nullptr) {
    *digits = s;
    while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
  }
  return sign + "0." + s + "e" + std::to_string(static_cast<long>(e));
}

// Checks one written binary32; returns an empty string or what is wrong.
std::string CheckFloat(float v, mpfr_t x) {
  char buf[MCORE_JSON_NUMBER_CHARS];
  const size_t len = mcore_JsonFormatFloat(v, buf);
  const std::string s(buf, len);
  float back = 0;
  if (mcore_JsonParseFloat(buf, len, &back) != mcore_jsonOk || Bits(back) != Bits(v)) return s + ": ours reads back wrong";
  if (Bits(RefFloat(s)) != Bits(v)) return s + ": MPFR reads back wrong";
  if (v == 0) return s == (Bits(v) >> 31 ? "-0" : "0") ? "" : s + ": zero";
  mpfr_set_prec(x, 24);
  mpfr_set_flt(x, v, MPFR_RNDN);
  const std::string digits = Digits(s);
  const int n = static_cast<int>(digits.size());
  if (n > 1) {
    if (Bits(RefFloat(Decimal(x, n - 1, MPFR_RNDD, nullptr))) == Bits(v)) return s + ": a shorter one rounds down to it";
    if (Bits(RefFloat(Decimal(x, n - 1, MPFR_RNDU, nullptr))) == Bits(v)) return s + ": a shorter one rounds up to it";
  }
  std::string nearest;
  const std::string t = Decimal(x, n, MPFR_RNDN, &nearest);
  if (Bits(RefFloat(t)) == Bits(v) && nearest != digits) return s + ": not the nearest, " + t;
  return "";
}

std::string CheckDouble(double v, mpfr_t x) {
  char buf[MCORE_JSON_NUMBER_CHARS];
  const size_t len = mcore_JsonFormatDouble(v, buf);
  const std::string s(buf, len);
  double back = 0;
  if (mcore_JsonParseDouble(buf, len, &back) != mcore_jsonOk || Bits(back) != Bits(v)) return s + ": ours reads back wrong";
  if (Bits(RefDouble(s)) != Bits(v)) return s + ": MPFR reads back wrong";
  if (v == 0) return "";
  mpfr_set_prec(x, 53);
  mpfr_set_d(x, v, MPFR_RNDN);
  const std::string digits = Digits(s);
  const int n = static_cast<int>(digits.size());
  if (n > 1) {
    if (Bits(RefDouble(Decimal(x, n - 1, MPFR_RNDD, nullptr))) == Bits(v)) return s + ": a shorter one rounds down to it";
    if (Bits(RefDouble(Decimal(x, n - 1, MPFR_RNDU, nullptr))) == Bits(v)) return s + ": a shorter one rounds up to it";
  }
  std::string nearest;
  const std::string t = Decimal(x, n, MPFR_RNDN, &nearest);
  if (Bits(RefDouble(t)) == Bits(v) && nearest != digits) return s + ": not the nearest, " + t;
  return "";
}

uint64_t EnvU64(const char* name, uint64_t fallback) {
  const char* s = std::getenv(name);
  return s != nullptr && *s != 0 ? std::strtoull(s, nullptr, 10) : fallback;
}

// One quarter of the binary32 bit patterns, every stride-th.
void SweepQuarter(uint32_t quarter) {
  const uint64_t stride = EnvU64("MAUL_JSON_F32_STRIDE", 6151);
  mpfr_t x;
  mpfr_init2(x, 24);
  uint64_t checked = 0, failures = 0;
  const uint64_t lo = static_cast<uint64_t>(quarter) << 30, hi = lo + (UINT64_C(1) << 30);
  for (uint64_t b = lo + (stride > 1 ? quarter : 0); b < hi; b += stride) {  // stride 1: every pattern
    const float v = F(static_cast<uint32_t>(b));
    if (!(v - v == 0)) continue;
    const std::string err = CheckFloat(v, x);
    ++checked;
    if (!err.empty() && ++failures <= 10) ADD_FAILURE() << std::hex << b << ": " << err;
  }
  mpfr_clear(x);
  EXPECT_EQ(failures, 0u);
  std::printf("binary32 quarter %u: %llu written and checked\n", quarter, static_cast<unsigned long long>(checked));
}

TEST(JsonNumberMpfr, Binary32Quarter0) { SweepQuarter(0); }
TEST(JsonNumberMpfr, Binary32Quarter1) { SweepQuarter(1); }
TEST(JsonNumberMpfr, Binary32Quarter2) { SweepQuarter(2); }
TEST(JsonNumberMpfr, Binary32Quarter3) { SweepQuarter(3); }

// Every float of two dense stretches: from 1 upwards and across the
// subnormal / normal boundary.
TEST(JsonNumberMpfr, Binary32DenseStretches) {
  mpfr_t x;
  mpfr_init2(x, 24);
  uint64_t failures = 0;
  for (uint32_t b = 0x3F800000u; b < 0x3F800000u + 100000u; ++b) {
    const std::string err = CheckFloat(F(b), x);
    if (!err.empty() && ++failures <= 10) ADD_FAILURE() << err;
  }
  for (uint32_t b = 0x00800000u - 50000u; b < 0x00800000u + 50000u; ++b) {
    const std::string err = CheckFloat(F(b), x);
    if (!err.empty() && ++failures <= 10) ADD_FAILURE() << err;
  }
  for (uint32_t b = 0; b < 20000u; ++b) {
    const std::string err = CheckFloat(F(b), x);
    if (!err.empty() && ++failures <= 10) ADD_FAILURE() << err;
  }
  for (uint32_t b = 0x7F7FFFFFu - 20000u; b <= 0x7F7FFFFFu; ++b) {
    const std::string err = CheckFloat(F(b), x);
    if (!err.empty() && ++failures <= 10) ADD_FAILURE() << err;
  }
  mpfr_clear(x);
  EXPECT_EQ(failures, 0u);
}

// Exact decimal text of x (at most 800 significant digits: a midpoint of
// binary64 has at most 767).
std::string Exact(mpfr_t x) { return Decimal(x, 800, MPFR_RNDN, nullptr); }

std::string RandomDecimal(mcore_Rng* rng, int digits, int expLo, int expHi) {
  std::string s;
  s += static_cast<char>('1' + mcore_RngBelow(rng, 9));
  if (digits > 1) s += '.';
  for (int i = 1; i < digits; ++i) s += static_cast<char>('0' + mcore_RngBelow(rng, 10));
  const int e = expLo + static_cast<int>(mcore_RngBelow(rng, static_cast<uint32_t>(expHi - expLo + 1)));
  return s + "e" + std::to_string(e);
}

double RandomFinite(mcore_Rng* rng) {
  double v;
  do {
    v = D(mcore_RngNext(rng) & 0x7FFFFFFFFFFFFFFFull);
  } while (!(v - v == 0));
  return v;
}

void ExpectReadsAsMpfr(const std::string& s, uint64_t* failures) {
  const double ref = RefDouble(s);
  double ours = 0;
  const mcore_JsonReason r = mcore_JsonParseDouble(s.data(), s.size(), &ours);
  const bool refInf = !(ref - ref == 0);
  const bool ok = refInf ? r == mcore_jsonRange : (r == mcore_jsonOk && Bits(ours) == Bits(ref));
  float f32 = 0;
  const float ref32 = RefFloat(s);
  const mcore_JsonReason r32 = mcore_JsonParseFloat(s.data(), s.size(), &f32);
  const bool ref32Inf = !(ref32 - ref32 == 0);
  const bool ok32 = ref32Inf ? r32 == mcore_jsonRange : (r32 == mcore_jsonOk && Bits(f32) == Bits(ref32));
  if ((!ok || !ok32) && ++*failures <= 10)
    ADD_FAILURE() << s.substr(0, 120) << (s.size() > 120 ? "..." : "") << (ok ? "" : " binary64") << (ok32 ? "" : " binary32");
}

// A quarter of the decimals (the shards share the work): powers and the
// random kinds below, seeded per quarter.
void Binary64Reads(uint32_t quarter) {
  const uint64_t count = EnvU64("MAUL_JSON_F64_COUNT", 1000000) / 4;
  mcore_Rng rng;
  mcore_RngSeed(&rng, 20261201 + quarter);
  mpfr_t m;
  mpfr_init2(m, 64);
  uint64_t failures = 0, done = 0;
  // powers of ten and of two, and their neighbours in the last digit
  for (int k = -345; quarter == 0 && k <= 310 && done < count; ++k, ++done) {
    ExpectReadsAsMpfr("1e" + std::to_string(k), &failures);
    ExpectReadsAsMpfr("9.999999999999999e" + std::to_string(k), &failures);
    ExpectReadsAsMpfr("1.0000000000000001e" + std::to_string(k), &failures);
  }
  for (int k = -1075; quarter == 1 && k <= 1024 && done < count; ++k, ++done) {
    mpfr_set_ui_2exp(m, 1, k, MPFR_RNDN);
    ExpectReadsAsMpfr(Exact(m), &failures);
    ExpectReadsAsMpfr(Decimal(m, 17, MPFR_RNDD, nullptr), &failures);
    ExpectReadsAsMpfr(Decimal(m, 17, MPFR_RNDU, nullptr), &failures);
  }
  while (done < count) {
    const uint32_t kind = mcore_RngBelow(&rng, 10);
    if (kind <= 1) {
      // a midpoint between neighbours (normal or subnormal), exactly, and just off it
      double v = RandomFinite(&rng);
      if (mcore_RngBelow(&rng, 4) == 0) v = D(mcore_RngNext(&rng) & 0x000FFFFFFFFFFFFFull);
      if (v == D(0x7FEFFFFFFFFFFFFFull)) continue;
      mpfr_set_d(m, v, MPFR_RNDN);
      mpfr_t n;
      mpfr_init2(n, 64);
      mpfr_set_d(n, D(Bits(v) + 1), MPFR_RNDN);
      mpfr_add(m, m, n, MPFR_RNDN);  // exact: 54 bits
      mpfr_div_2ui(m, m, 1, MPFR_RNDN);
      mpfr_clear(n);
      if (kind == 0) {
        ExpectReadsAsMpfr(Exact(m), &failures);
      } else {
        const int digits = 17 + static_cast<int>(mcore_RngBelow(&rng, 8));
        ExpectReadsAsMpfr(Decimal(m, digits, MPFR_RNDD, nullptr), &failures);
        ExpectReadsAsMpfr(Decimal(m, digits, MPFR_RNDU, nullptr), &failures);
      }
    } else if (kind <= 4) {
      ExpectReadsAsMpfr(RandomDecimal(&rng, 17, -345, 310), &failures);  // 17 digits anywhere
    } else if (kind <= 6) {
      ExpectReadsAsMpfr(RandomDecimal(&rng, 1 + static_cast<int>(mcore_RngBelow(&rng, 16)), -30, 30), &failures);
    } else if (kind == 7) {
      ExpectReadsAsMpfr(RandomDecimal(&rng, 1 + static_cast<int>(mcore_RngBelow(&rng, 9)), -50, 40), &failures);
    } else if (kind == 8) {
      // subnormal range and the overflow edge
      ExpectReadsAsMpfr(RandomDecimal(&rng, 1 + static_cast<int>(mcore_RngBelow(&rng, 20)), -330, -306), &failures);
      ExpectReadsAsMpfr(RandomDecimal(&rng, 1 + static_cast<int>(mcore_RngBelow(&rng, 20)), 305, 309), &failures);
    } else {
      // a binary32 midpoint and its near neighbours
      const uint32_t b = static_cast<uint32_t>(mcore_RngNext(&rng)) & 0x7F7FFFFEu;
      mpfr_set_flt(m, F(b), MPFR_RNDN);
      mpfr_t n;
      mpfr_init2(n, 64);
      mpfr_set_flt(n, F(b + 1), MPFR_RNDN);
      mpfr_add(m, m, n, MPFR_RNDN);
      mpfr_div_2ui(m, m, 1, MPFR_RNDN);
      mpfr_clear(n);
      ExpectReadsAsMpfr(Exact(m), &failures);
      ExpectReadsAsMpfr(Decimal(m, 12, MPFR_RNDU, nullptr), &failures);
    }
    ++done;
  }
  mpfr_clear(m);
  EXPECT_EQ(failures, 0u);
  std::printf("binary64 quarter %u: %llu decimals read\n", quarter, static_cast<unsigned long long>(done));
}

TEST(JsonNumberMpfr, Binary64ReadsQuarter0) { Binary64Reads(0); }
TEST(JsonNumberMpfr, Binary64ReadsQuarter1) { Binary64Reads(1); }
TEST(JsonNumberMpfr, Binary64ReadsQuarter2) { Binary64Reads(2); }
TEST(JsonNumberMpfr, Binary64ReadsQuarter3) { Binary64Reads(3); }

TEST(JsonNumberMpfr, Binary64Writes) {
  mcore_Rng rng;
  mcore_RngSeed(&rng, 77);
  mpfr_t x;
  mpfr_init2(x, 53);
  uint64_t failures = 0;
  for (int i = 0; i < 200000; ++i) {
    double v = RandomFinite(&rng);
    if (i % 5 == 0) v = D(mcore_RngNext(&rng) & 0x000FFFFFFFFFFFFFull);         // subnormals
    if (i % 7 == 0) v = D((mcore_RngNext(&rng) % 0x7FFull) << 52);               // powers of two
    if (i % 11 == 0) v = static_cast<double>(mcore_RngBelow(&rng, 1000000)) / 1000;  // short decimals
    const std::string err = CheckDouble(v, x);
    if (!err.empty() && ++failures <= 10) ADD_FAILURE() << err;
  }
  mpfr_clear(x);
  EXPECT_EQ(failures, 0u);
}

}  // namespace
