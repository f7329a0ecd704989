// XLA program ids in JSON. A program id is a uint64 (TPU ids above 2^63 occur), whatever the
// signedness of the stat or map key that carried it; in memory it is kept as those 64 bits in an
// int64. JavaScript Numbers hold integers exactly only up to 2^53, so larger ids are written as
// decimal strings: a reader compares them as strings and never turns them into a Number.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace strata {

inline constexpr uint64_t kExactInJsNumber = uint64_t{1} << 53;

// The id's decimal text ("18446744073709551615" for the bits of -1).
inline std::string program_id_text(int64_t bits) {
  return std::to_string(static_cast<uint64_t>(bits));
}

// Appends the id as a JSON value: a number up to 2^53, a quoted decimal string above.
inline void append_program_id(std::string* out, int64_t bits) {
  const auto v = static_cast<uint64_t>(bits);
  if (v <= kExactInJsNumber) {
    out->append(std::to_string(v));
  } else {
    out->push_back('"');
    out->append(std::to_string(v));
    out->push_back('"');
  }
}

// Reads an id written by append_program_id (or any decimal text) back into its 64 bits. A
// leading '-' keeps the negative value's bits ("-1" → -1), for readers of older answers.
inline bool parse_program_id(std::string_view text, int64_t* bits) {
  if (text.empty()) return false;
  const bool negative = text.front() == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty() || text.size() > 20) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;  // does not fit 64 bits
    v = v * 10 + d;
  }
  *bits = static_cast<int64_t>(negative ? 0 - v : v);
  return true;
}

}  // namespace strata
