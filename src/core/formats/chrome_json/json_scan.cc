// JSON scanning primitives. Strings are located with the vector scanners of json_simd.h because
// in real traces most bytes are string contents (names, call stacks).
#include "core/formats/chrome_json/json_scan.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace strata::json {

namespace {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Matches `lit` at p. kIncomplete when the buffer ends inside a matching prefix.
Scan match_literal(const char* p, const char* e, std::string_view lit, const char** out) {
  size_t avail = static_cast<size_t>(e - p);
  size_t n = avail < lit.size() ? avail : lit.size();
  if (std::memcmp(p, lit.data(), n) != 0) return Scan::kError;
  if (n < lit.size()) return Scan::kIncomplete;
  *out = p + lit.size();
  return Scan::kOk;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(const char* p, const char* e, uint32_t* v) {
  if (e - p < 4) return false;
  uint32_t x = 0;
  for (int i = 0; i < 4; ++i) {
    int h = hex_value(p[i]);
    if (h < 0) return false;
    x = x * 16 + static_cast<uint32_t>(h);
  }
  *v = x;
  return true;
}

void append_utf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

bool unescape(const char* b, const char* e, std::string* out, const char** reason) {
  while (b < e) {
    auto* bs = static_cast<const char*>(std::memchr(b, '\\', static_cast<size_t>(e - b)));
    if (!bs) {
      out->append(b, static_cast<size_t>(e - b));
      return true;
    }
    out->append(b, static_cast<size_t>(bs - b));
    if (bs + 1 >= e) {
      *reason = "a string ends with a lone backslash";
      return false;
    }
    char c = bs[1];
    b = bs + 2;
    switch (c) {
      case '"':
        out->push_back('"');
        break;
      case '\\':
        out->push_back('\\');
        break;
      case '/':
        out->push_back('/');
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'u': {
        uint32_t cp;
        if (!read_hex4(b, e, &cp)) {
          *reason = "a \\u escape without 4 hex digits";
          return false;
        }
        b += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t lo;
          if (e - b >= 6 && b[0] == '\\' && b[1] == 'u' && read_hex4(b + 2, e, &lo) &&
              lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            b += 6;
          } else {
            cp = 0xFFFD;  // lone high surrogate
          }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          cp = 0xFFFD;  // lone low surrogate
        }
        append_utf8(cp, out);
        break;
      }
      default:
        *reason = "an invalid escape in a string";
        return false;
    }
  }
  return true;
}

// scan_number's body, inlined where numbers are frequent (skip_value, args).
__attribute__((always_inline)) inline Scan scan_number_inline(const char* p, const char* e,
                                                              const char** out) {
  const char* q = p;
  if (q < e && *q == '-') ++q;
  if (q >= e) return Scan::kIncomplete;
  if (*q == 'I') return match_literal(q, e, "Infinity", out);
  if (*q == 'N' && q == p) return match_literal(q, e, "NaN", out);
  if (!is_digit(*q)) return Scan::kError;
  q = skip_digits(q, e);
  if (q >= e) return Scan::kIncomplete;
  if (*q == '.') {
    ++q;
    if (q >= e) return Scan::kIncomplete;
    if (!is_digit(*q)) return Scan::kError;
    q = skip_digits(q, e);
    if (q >= e) return Scan::kIncomplete;
  }
  if (*q == 'e' || *q == 'E') {
    ++q;
    if (q < e && (*q == '+' || *q == '-')) ++q;
    if (q >= e) return Scan::kIncomplete;
    if (!is_digit(*q)) return Scan::kError;
    q = skip_digits(q, e);
    if (q >= e) return Scan::kIncomplete;
  }
  *out = q;
  return Scan::kOk;
}

Scan scan_number(const char* p, const char* e, const char** out) {
  return scan_number_inline(p, e, out);
}

namespace {

// Reads `"key" :` inside an object, leaving p at the member's value. Always inlined into
// skip_value so p stays in a register (as a lambda it was a call with p in memory, per key).
__attribute__((always_inline)) inline Scan read_key(const char*& p, const char* e, const char** out,
                                                    const char** reason) {
  p = skip_ws(p, e);
  if (p >= e) return Scan::kIncomplete;
  if (*p != '"') {
    *out = p;
    *reason = "expected a quoted key in an object";
    return Scan::kError;
  }
  const char* close;
  bool esc;
  if (find_string_end(p + 1, e, &close, &esc) != Scan::kOk) return Scan::kIncomplete;
  p = skip_ws(close + 1, e);
  if (p >= e) return Scan::kIncomplete;
  if (*p != ':') {
    *out = p;
    *reason = "expected ':' after a key";
    return Scan::kError;
  }
  ++p;
  return Scan::kOk;
}

}  // namespace

Scan skip_value(const char* p, const char* e, const char** out, const char** reason) {
  // One bit of state per open container: is it an object (needs "key":) or an array.
  bool is_object[kMaxDepth];
  int depth = 0;
  auto fail = [&](const char* at, const char* why) {
    *out = at;
    *reason = why;
    return Scan::kError;
  };

  for (;;) {
    // Expect a value.
    p = skip_ws(p, e);
    if (p >= e) return Scan::kIncomplete;
    char c = *p;
    if (c == '{' || c == '[') {
      if (depth >= kMaxDepth) return fail(p, "nesting deeper than 256 levels");
      is_object[depth++] = (c == '{');
      p = skip_ws(p + 1, e);
      if (p >= e) return Scan::kIncomplete;
      if (*p == (c == '{' ? '}' : ']')) {
        ++p;
        --depth;
      } else {
        if (c == '{') {
          Scan s = read_key(p, e, out, reason);
          if (s != Scan::kOk) return s;
        }
        continue;
      }
    } else if (c == '"') {
      const char* close;
      bool esc;
      if (find_string_end(p + 1, e, &close, &esc) != Scan::kOk) return Scan::kIncomplete;
      p = close + 1;
    } else {
      const char* q;
      Scan s;
      if (c == 't') {
        s = match_literal(p, e, "true", &q);
      } else if (c == 'f') {
        s = match_literal(p, e, "false", &q);
      } else if (c == 'n') {
        s = match_literal(p, e, "null", &q);
      } else {
        s = scan_number_inline(p, e, &q);
      }
      if (s == Scan::kError) return fail(p, "unexpected character where a value should be");
      if (s == Scan::kIncomplete) return s;
      p = q;
    }
    // After a value: close containers or move to the next element.
    for (;;) {
      if (depth == 0) {
        *out = p;
        return Scan::kOk;
      }
      p = skip_ws(p, e);
      if (p >= e) return Scan::kIncomplete;
      bool obj = is_object[depth - 1];
      if (*p == ',') {
        ++p;
        if (obj) {
          Scan s = read_key(p, e, out, reason);
          if (s != Scan::kOk) return s;
        }
        break;
      }
      if (*p == (obj ? '}' : ']')) {
        ++p;
        --depth;
        continue;
      }
      return fail(p, obj ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array");
    }
  }
}

namespace {

// The spellings producers actually write (Kineto "1700000000123.456", catapult "9524") without
// exponent and with at most 16 integer digits: one pass, integer arithmetic. Returns false to
// send anything else to the general path. On success *q is just past the number.
inline bool fast_us_to_ns(const char*& q, const char* e, int64_t* ns) {
  static constexpr uint64_t kPow10[9] = {1,      10,      100,      1000,     10000,
                                         100000, 1000000, 10000000, 100000000};
  const char* p = q;
  bool neg = false;
  if (p < e && *p == '-') neg = (++p, true);
  const char* ib = p;
  uint64_t ip = 0;
  if (e - p >= 16) {
    // Up to 16 integer digits in two 8-byte steps (json_simd.h).
    int k = leading_digits8(p);
    if (k == 0) return false;
    ip = digits8_value(p, k);
    p += k;
    if (k == 8) {
      int k2 = leading_digits8(p);
      if (k2 > 0) ip = ip * kPow10[k2] + digits8_value(p, k2);
      p += k2;
      if (k2 == 8 && p < e && is_digit(*p)) return false;  // more than 16 digits
    }
  } else {
    while (p < e && is_digit(*p)) ip = ip * 10 + static_cast<uint64_t>(*p++ - '0');
  }
  if (p == ib || p - ib > 16 || ip >= 9223372036854775ull) return false;
  uint64_t frac = 0;
  if (p < e && *p == '.') {
    ++p;
    int n = 0;
    if (e - p >= 8) {
      int k = leading_digits8(p);
      if (k == 0) return false;
      n = k < 3 ? k : 3;
      frac = digits8_value(p, n);
      for (; n < 3; ++n) frac *= 10;
      if (k > 3 && p[3] >= '5') ++frac;  // half away from zero; later digits cannot change that
      p += k;
      if (k == 8) p = skip_digits(p, e);
    } else {
      const char* fb = p;
      for (; p < e && is_digit(*p) && n < 3; ++p, ++n)
        frac = frac * 10 + static_cast<uint64_t>(*p - '0');
      if (p == fb) return false;
      for (; n < 3; ++n) frac *= 10;
      if (p < e && is_digit(*p)) {
        if (*p >= '5') ++frac;
        while (p < e && is_digit(*p)) ++p;
      }
    }
  }
  if (p < e && (*p == 'e' || *p == 'E')) return false;
  uint64_t mag = ip * 1000 + frac;
  *ns = neg ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
  q = p;
  return true;
}

}  // namespace

Scan scan_us_number(const char* p, const char* e, const char** out, int64_t* ns, bool* valid) {
  const char* q = p;
  // The fast path must also see where the token ends: a number running into `e` may continue.
  if (fast_us_to_ns(q, e, ns) && q < e) {
    *out = q;
    *valid = true;
    return Scan::kOk;
  }
  Scan s = scan_number(p, e, out);
  if (s == Scan::kOk)
    *valid = us_text_to_ns(std::string_view(p, static_cast<size_t>(*out - p)), ns) == Scan::kOk;
  return s;
}

Scan us_text_to_ns(std::string_view text, int64_t* ns) {
  const char* q = text.data();
  if (fast_us_to_ns(q, text.data() + text.size(), ns) && q == text.data() + text.size())
    return Scan::kOk;
  const char* p = text.data();
  const char* e = p + text.size();
  bool neg = false;
  if (p < e && (*p == '-' || *p == '+')) neg = (*p++ == '-');
  const char* ib = p;
  while (p < e && is_digit(*p)) ++p;
  const char* ie = p;
  const char* fb = p;
  const char* fe = p;
  if (p < e && *p == '.') {
    fb = ++p;
    while (p < e && is_digit(*p)) ++p;
    fe = p;
  }
  int64_t n_int = ie - ib, n_frac = fe - fb;
  if (n_int + n_frac == 0) return Scan::kError;
  int64_t exp10 = 0;
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    bool eneg = false;
    if (p < e && (*p == '+' || *p == '-')) eneg = (*p++ == '-');
    if (p >= e || !is_digit(*p)) return Scan::kError;
    while (p < e && is_digit(*p)) {
      // Beyond a million the answer is 0 or overflow anyway; stop growing.
      if (exp10 < 1000000) exp10 = exp10 * 10 + (*p - '0');
      ++p;
    }
    if (eneg) exp10 = -exp10;
  }
  if (p != e) return Scan::kError;

  // Digit i of the mantissa (integer digits then fraction digits) has its ns place value set
  // by `cut`: digits [0, cut) form the integer ns value, digit `cut` decides the rounding.
  int64_t len = n_int + n_frac;
  auto digit = [&](int64_t i) -> int {
    if (i < 0 || i >= len) return 0;
    return i < n_int ? ib[i] - '0' : fb[i - n_int] - '0';
  };
  int64_t cut = n_int + exp10 + 3;
  // Skip leading zeros so a value like 0.000...0001 with a large exponent is handled.
  int64_t first = 0;
  while (first < len && digit(first) == 0) ++first;
  if (first == len) {
    *ns = 0;
    return Scan::kOk;
  }
  if (cut - first > 19) return Scan::kError;  // ≥ 10^19 ns: does not fit int64
  uint64_t mag = 0;
  for (int64_t i = first; i < cut; ++i) mag = mag * 10 + static_cast<uint64_t>(digit(i));
  if (digit(cut) >= 5) ++mag;  // half away from zero (sign applied after)
  if (mag > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Scan::kError;
  *ns = neg ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
  return Scan::kOk;
}

bool parse_double(std::string_view text, double* out) {
  if (text.empty()) return false;
  std::string_view t = text;
  bool neg = false;
  if (t[0] == '-') {
    neg = true;
    t.remove_prefix(1);
  }
  if (t == "Infinity") {
    *out = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (t == "NaN" && !neg) {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  // Only plain decimal syntax: strtod would also take hex, "inf" and leading blanks.
  if (t.empty() || !(is_digit(t[0]) || t[0] == '.')) return false;
  for (char c : t)
    if (!(is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) return false;
  // strtod needs a terminated copy; numbers are short, so a stack buffer nearly always does.
  char buf[64];
  std::string big;
  const char* s;
  if (text.size() < sizeof(buf)) {
    std::memcpy(buf, text.data(), text.size());
    buf[text.size()] = 0;
    s = buf;
  } else {
    big.assign(text);
    s = big.c_str();
  }
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end != s + text.size()) return false;
  *out = v;
  return true;
}

bool parse_int64(std::string_view text, int64_t* out) {
  const char* p = text.data();
  const char* e = p + text.size();
  bool neg = false;
  if (p < e && *p == '-') neg = (++p, true);
  if (p >= e || !is_digit(*p)) return false;
  uint64_t v = 0;
  for (; p < e && is_digit(*p); ++p) {
    if (v > (uint64_t{1} << 63) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(*p - '0');
  }
  if (p < e && *p == '.') {
    ++p;
    while (p < e && is_digit(*p)) ++p;
  }
  if (p != e) return false;
  if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (neg ? 1 : 0)) return false;
  *out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

void ValueSkipper::start(char first, bool braces_only) {
  mode_ = first == '"' ? kString : (first == '{' || first == '[') ? kContainer : kScalar;
  braces_only_ = braces_only && first == '{';
  in_string_ = escape_ = started_ = done_ = false;
  depth_ = 0;
}

void ValueSkipper::start_in_string() {
  start('"');
  started_ = true;
}

// Inside a string: returns the byte after the closing quote, or nullptr with escape_ set when
// the chunk ends right after a backslash (the next chunk's first byte is then escaped).
const char* ValueSkipper::feed_string(const char* p, const char* e) {
  if (escape_) {
    if (p >= e) return nullptr;
    ++p;
    escape_ = false;
  }
  for (;;) {
    p = find_quote_or_backslash(p, e);
    if (p >= e) return nullptr;
    if (*p == '"') return p + 1;
    if (e - p < 2) {
      escape_ = true;
      return nullptr;
    }
    p += 2;  // a backslash and the byte it escapes
  }
}

const char* ValueSkipper::feed(const char* p, const char* e) {
  if (done_) return p;
  if (!started_) {
    if (p >= e) return nullptr;
    started_ = true;
    if (mode_ != kScalar) ++p;
    if (mode_ == kContainer) depth_ = 1;
  }
  if (mode_ == kScalar) {
    for (; p < e; ++p) {
      char c = *p;
      if (c == ',' || c == '}' || c == ']' || is_ws(c)) {
        done_ = true;
        return p;
      }
    }
    return nullptr;
  }
  if (mode_ == kString) {
    const char* q = feed_string(p, e);
    if (q) done_ = true;
    return q;
  }
  while (p < e) {
    if (in_string_) {
      const char* q = feed_string(p, e);
      if (!q) return nullptr;
      in_string_ = false;
      p = q;
      continue;
    }
    char c = *p++;
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || (c == '[' && !braces_only_)) {
      ++depth_;
    } else if (c == '}' || (c == ']' && !braces_only_)) {
      if (--depth_ == 0) {
        done_ = true;
        return p;
      }
    }
  }
  return nullptr;
}

}  // namespace strata::json
