// The vector scanners of json_simd.h (SSE2 natively, simd128 in wasm) against their scalar
// references, and the string scanning built on them (find_string_end, ValueSkipper) against a
// byte-at-a-time model, on random inputs cut at every length (a chunk may end anywhere).
// Inputs live in exactly-sized heap buffers, so ASan reports any read past the end.
#include "core/formats/chrome_json/json_simd.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "core/formats/chrome_json/json_scan.h"

namespace strata::json {
namespace {

// A copy of `s` in a heap block of exactly s.size() bytes.
std::unique_ptr<char[]> exact_copy(const std::string& s) {
  std::unique_ptr<char[]> b(new char[s.empty() ? 1 : s.size()]);
  if (!s.empty()) std::memcpy(b.get(), s.data(), s.size());
  return b;
}

// Random bytes where quotes and backslashes are rare (as in real strings) or frequent.
std::string random_text(std::mt19937& rng, size_t n, int special_per_64) {
  static const char kPlain[] = "abcXYZ019 :,{}[]\t\x01\x7f\xc3\xa9\xff";
  std::string s(n, 'a');
  for (char& c : s) {
    int r = static_cast<int>(rng() % 64);
    if (r < special_per_64)
      c = rng() % 2 ? '"' : '\\';
    else
      c = kPlain[rng() % (sizeof(kPlain) - 1)];
  }
  return s;
}

// find_string_end, one byte at a time.
Scan reference_string_end(const char* p, const char* e, const char** close, bool* esc) {
  bool escaped = false;
  for (; p < e; ++p) {
    if (*p == '"') {
      *close = p;
      *esc = escaped;
      return Scan::kOk;
    }
    if (*p == '\\') {
      escaped = true;
      if (++p == e) return Scan::kIncomplete;
    }
  }
  return Scan::kIncomplete;
}

TEST(JsonSimd, BuildHasAVectorPathOnX86) {
#if defined(__x86_64__)
  EXPECT_TRUE(kHasSimd);  // SSE2 is part of x86-64: the vector path is what runs natively
#endif
}

TEST(JsonSimd, FindQuoteOrBackslashMatchesScalar) {
  std::mt19937 rng(1);
  for (int round = 0; round < 3000; ++round) {
    size_t n = rng() % 100;
    std::string s = random_text(rng, n, round % 3 == 0 ? 0 : static_cast<int>(rng() % 8));
    auto buf = exact_copy(s);
    const char* e = buf.get() + n;
    for (size_t start = 0; start <= n; ++start) {
      const char* p = buf.get() + start;
      ASSERT_EQ(find_quote_or_backslash(p, e), find_quote_or_backslash_scalar(p, e))
          << "round " << round << " start " << start;
    }
  }
}

TEST(JsonSimd, FindQuoteOrBackslashAtEveryPosition) {
  for (size_t n = 1; n <= 80; ++n) {
    for (size_t at = 0; at < n; ++at) {
      for (char c : {'"', '\\'}) {
        std::string s(n, 'x');
        s[at] = c;
        auto buf = exact_copy(s);
        EXPECT_EQ(find_quote_or_backslash(buf.get(), buf.get() + n), buf.get() + at);
        EXPECT_EQ(find_quote_or_backslash(buf.get(), buf.get() + at), buf.get() + at);  // cut
      }
    }
  }
}

TEST(JsonSimd, EqualBytesMatchesScalar) {
  std::mt19937 rng(2);
  for (int round = 0; round < 20000; ++round) {
    size_t n = rng() % 70;
    std::string a = random_text(rng, n, 4);
    std::string b = a;
    if (n && rng() % 2) b[rng() % n] ^= static_cast<char>(1 + rng() % 255);
    auto x = exact_copy(a), y = exact_copy(b);
    ASSERT_EQ(equal_bytes(x.get(), y.get(), n), equal_bytes_scalar(x.get(), y.get(), n))
        << "round " << round << " n " << n;
    ASSERT_EQ(equal_bytes(x.get(), y.get(), n), a == b);
  }
}

TEST(JsonSimd, FindStringEndMatchesByteModelAtEveryCut) {
  std::mt19937 rng(3);
  for (int round = 0; round < 2000; ++round) {
    size_t n = rng() % 90;
    std::string s = random_text(rng, n, static_cast<int>(rng() % 6));
    auto buf = exact_copy(s);
    for (size_t cut = 0; cut <= n; ++cut) {
      const char* e = buf.get() + cut;
      const char *c1 = nullptr, *c2 = nullptr;
      bool e1 = false, e2 = false;
      Scan r1 = find_string_end(buf.get(), e, &c1, &e1);
      Scan r2 = reference_string_end(buf.get(), e, &c2, &e2);
      ASSERT_EQ(r1, r2) << "round " << round << " cut " << cut;
      if (r1 == Scan::kOk) {
        ASSERT_EQ(c1, c2);
        ASSERT_EQ(e1, e2);
      }
    }
  }
}

// A string value skipped in pieces ends where the byte model says, wherever it is cut, even
// between a backslash and the byte it escapes.
TEST(JsonSimd, ValueSkipperStringAcrossAnySplit) {
  std::mt19937 rng(4);
  for (int round = 0; round < 1500; ++round) {
    std::string body = random_text(rng, rng() % 70, static_cast<int>(rng() % 6));
    std::string s = body + "x\"tail";  // x: a trailing backslash in body escapes it, not the quote
    auto buf = exact_copy(s);
    const char* b = buf.get();
    const char* e = b + s.size();
    const char* close;
    bool esc;
    ASSERT_EQ(reference_string_end(b, e, &close, &esc), Scan::kOk);
    const size_t want = static_cast<size_t>(close - b) + 1;
    for (size_t cut = 0; cut <= s.size(); ++cut) {
      ValueSkipper sk;
      sk.start_in_string();
      const char* q = sk.feed(b, b + cut);
      size_t got = q ? static_cast<size_t>(q - b) : 0;
      if (!q) {
        const char* r = sk.feed(b + cut, e);
        ASSERT_NE(r, nullptr) << "round " << round << " cut " << cut;
        got = static_cast<size_t>(r - b);
      }
      ASSERT_EQ(got, want) << "round " << round << " cut " << cut;
    }
  }
}

TEST(JsonSimd, DigitScannersMatchScalar) {
  std::mt19937 rng(5);
  for (int round = 0; round < 20000; ++round) {
    size_t n = rng() % 40;
    std::string s(n, '0');
    for (char& c : s)
      c = rng() % 8 ? static_cast<char>('0' + rng() % 10) : ".e-,:\x00/:"[rng() % 9];
    auto buf = exact_copy(s);
    for (size_t start = 0; start <= n; ++start) {
      const char* p = buf.get() + start;
      const char* e = buf.get() + n;
      ASSERT_EQ(skip_digits(p, e), skip_digits_scalar(p, e)) << s << " at " << start;
      if (e - p >= 8) {
        int k = leading_digits8(p);
        ASSERT_EQ(p + k, skip_digits_scalar(p, p + 8));
        if (k > 0) {
          ASSERT_EQ(digits8_value(p, k), std::stoull(std::string(p, static_cast<size_t>(k))));
        }
      }
    }
  }
}

// Microseconds text → ns, computed the long way: integer part × 1000 + 3 fraction digits,
// rounded half away from zero by the 4th; false when it does not fit int64.
__extension__ typedef unsigned __int128 U128;  // wide enough for any 20-digit integer x 1000

bool reference_us_to_ns(const std::string& t, int64_t* ns) {
  size_t i = 0;
  bool neg = t[0] == '-';
  if (neg) ++i;
  U128 v = 0;
  for (; i < t.size() && t[i] != '.'; ++i) v = v * 10 + static_cast<unsigned>(t[i] - '0');
  std::string frac = i < t.size() ? t.substr(i + 1) : "";
  frac.resize(std::max<size_t>(frac.size(), 4), '0');
  for (int k = 0; k < 3; ++k) v = v * 10 + static_cast<unsigned>(frac[k] - '0');
  if (frac[3] >= '5') ++v;
  if (v > static_cast<U128>(INT64_MAX)) return false;
  *ns = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

TEST(JsonSimd, MicrosecondNumbersMatchTheLongWayAtEveryCut) {
  std::mt19937 rng(6);
  for (int round = 0; round < 20000; ++round) {
    std::string t = rng() % 4 == 0 ? "-" : "";
    size_t int_digits = 1 + rng() % 20;
    for (size_t k = 0; k < int_digits; ++k) t += static_cast<char>('0' + rng() % 10);
    if (rng() % 3) {
      t += '.';
      size_t frac_digits = 1 + rng() % 12;
      for (size_t k = 0; k < frac_digits; ++k) t += static_cast<char>('0' + rng() % 10);
    }
    int64_t want = 0;
    bool fits = reference_us_to_ns(t, &want);
    int64_t got = 0;
    ASSERT_EQ(us_text_to_ns(t, &got) == Scan::kOk, fits) << t;
    if (fits) {
      ASSERT_EQ(got, want) << t;
    }
    // In a record: complete when followed by a delimiter, incomplete when cut inside.
    std::string rec = t + ", \"x\": 1}";
    auto buf = exact_copy(rec);
    for (size_t cut = 1; cut <= rec.size(); ++cut) {
      const char* out = nullptr;
      bool valid = false;
      int64_t v = 0;
      Scan r = scan_us_number(buf.get(), buf.get() + cut, &out, &v, &valid);
      if (cut <= t.size()) {
        ASSERT_EQ(r, Scan::kIncomplete) << t << " cut " << cut;
      } else {
        ASSERT_EQ(r, Scan::kOk) << t << " cut " << cut;
        ASSERT_EQ(out, buf.get() + t.size());
        ASSERT_EQ(valid, fits) << t;
        if (fits) {
          ASSERT_EQ(v, want) << t;
        }
      }
    }
  }
}

}  // namespace
}  // namespace strata::json
