// Minimal JSON output for the script API (summary, find, details): appends to a std::string.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

// Appends `s` as a JSON string literal (quotes, escapes, control characters as \u00XX).
void json_append_string(std::string* out, std::string_view s);
// Appends a double; non-finite values become null (JSON has no NaN).
void json_append_number(std::string* out, double v);
void json_append_int(std::string* out, int64_t v);

}  // namespace strata
