// Small text helpers the readers share: trimming a field and lower-casing ASCII (names and
// keys in profiles are ASCII; other bytes pass through unchanged).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

// The default set: blanks, tabs and the line ends a CRLF file leaves on a field.
inline constexpr std::string_view kBlanks = " \t\r";

inline std::string_view trim(std::string_view s, std::string_view chars = kBlanks) {
  const size_t b = s.find_first_not_of(chars);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(chars) - b + 1);
}

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// "1 event", "3 events": a count with the word that fits it, for messages.
inline std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace strata
