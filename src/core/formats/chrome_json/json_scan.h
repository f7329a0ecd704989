// Low-level JSON scanning used by the Chrome trace importer and by json_flatten: bounded,
// allocation-free helpers over byte spans, and exact decimal number conversion.
//
// Every function takes an explicit end pointer and never reads past it. Functions that work on
// a span that may stop mid-value report kIncomplete rather than guessing, so the importer can
// tell "this record continues in the next chunk" from "this record is broken".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/formats/chrome_json/json_simd.h"

namespace strata::json {

enum class Scan : uint8_t { kOk, kIncomplete, kError };

// Containers nested deeper than this inside one value are rejected (kError), which bounds the
// fixed-size bracket stack of skip_value() and json_flatten's work stack.
constexpr int kMaxDepth = 256;

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

inline const char* skip_ws(const char* p, const char* e) {
  while (p < e && is_ws(*p)) ++p;
  return p;
}

// Finds the closing quote of a string whose body starts at `p` (just after the opening quote).
// Returns kOk with *close at the closing quote, or kIncomplete. *has_escape tells whether the
// body contains a backslash (so it must be unescaped before use). Inline: it is the innermost
// loop of the importer (every key and string value).
inline Scan find_string_end(const char* p, const char* e, const char** close, bool* has_escape) {
  bool escaped = false;
  for (;;) {
    p = find_quote_or_backslash(p, e);
    if (p >= e) return Scan::kIncomplete;
    if (*p == '"') {
      *close = p;
      *has_escape = escaped;
      return Scan::kOk;
    }
    // A backslash: the byte after it cannot end the string.
    if (e - p < 2) return Scan::kIncomplete;
    escaped = true;
    p += 2;
  }
}

// Appends the unescaped body [b, e) to *out. \uXXXX escapes (with surrogate pairs) become
// UTF-8; a lone surrogate becomes U+FFFD. Raw bytes are copied as they are (UTF-8 validity is
// checked later, when interning). Returns false on an invalid escape, with *reason set.
bool unescape(const char* b, const char* e, std::string* out, const char** reason);

// Skips one JSON value starting at `p` (leading whitespace allowed), validating its syntax.
// Iterative with a fixed stack: deep nesting is an error, never a stack overflow. On kOk *out
// is just past the value; on kError *out is where the problem is and *reason says what it is.
// Lenient where producers are: raw control bytes in strings, NaN/Infinity, leading zeros.
Scan skip_value(const char* p, const char* e, const char** out, const char** reason);

// Scans a number token (JSON grammar, plus NaN / Infinity / -Infinity) starting at p. Returns
// kOk with *out just past it; kIncomplete when the token runs into `e` (more digits may follow).
Scan scan_number(const char* p, const char* e, const char** out);

// Microseconds as decimal text (integer, fraction, exponent; optional sign) → nanoseconds by
// exact decimal arithmetic, rounding half away from zero at the ns digit. The whole text must
// be the number. kError on bad syntax or when the result does not fit int64.
Scan us_text_to_ns(std::string_view text, int64_t* ns);

// scan_number + us_text_to_ns in one pass for the common spellings: scans the number token at
// p (same results as scan_number) and converts it; *valid is false when the conversion fails
// (NaN, out of range).
Scan scan_us_number(const char* p, const char* e, const char** out, int64_t* ns, bool* valid);

// Decimal text → double (counter values). Accepts JSON numbers and NaN/Infinity/-Infinity.
bool parse_double(std::string_view text, double* out);

// Decimal integer text (optional '-', digits; a fractional part is ignored) → int64, for
// numeric pids/tids. false when the text is not a number or does not fit.
bool parse_int64(std::string_view text, int64_t* out);

// Resumable, lenient skipper for one value of unbounded size, fed in chunks of any size. It
// only tracks bracket depth (a 64-bit counter) and string/escape state, so a 1 GB value or
// 10^6-deep nesting costs neither stack nor memory. Used for skipped top-level members of the
// object form and to find where a record ends when it is split across chunks.
class ValueSkipper {
 public:
  // `first` is the value's first (non-blank) byte; the caller has NOT consumed it yet.
  // `braces_only` (for event objects) matches only { } and ignores [ ]: a record with a
  // bracket mismatch then still ends at its own closing brace instead of swallowing the
  // records after it.
  void start(char first, bool braces_only = false);
  // Starts inside a string whose opening quote the caller already consumed.
  void start_in_string();
  // Consumes bytes of the value from [p, e). Returns the first byte after the value, or nullptr
  // when all of [p, e) belongs to the value and more input is needed. A scalar (number,
  // literal) ends before the first delimiter (, } ] or blank), which is not consumed.
  const char* feed(const char* p, const char* e);
  bool done() const { return done_; }

 private:
  enum Mode : uint8_t { kString, kContainer, kScalar };
  const char* feed_string(const char* p, const char* e);
  Mode mode_ = kScalar;
  bool in_string_ = false;  // inside a string within a container
  bool escape_ = false;     // the next string byte is escaped
  bool started_ = false;    // the opening byte has been consumed
  bool done_ = false;
  bool braces_only_ = false;
  uint64_t depth_ = 0;
};

}  // namespace strata::json
