// json_flatten: turns one JSON object (e.g. a trace event's bytes, re-read from the file by
// src_offset/src_len) into a flat list of lines, pre-order, for the details pane's tree view.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct JsonLine {
  uint16_t depth = 0;  // 0 for the members of the root
  std::string key;     // member name, or "[i]" for array elements
  std::string value;   // scalar text: strings unescaped and UTF-8-sanitized; empty for o / a
  char kind = 'z';     // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
};

// Flattens `json_object_text`. The root's members (or an array root's elements) are the depth-0
// lines; a scalar root gives one line with an empty key. Iterative: nesting deeper than 256
// levels is an error, never a stack overflow. Returns false with a message naming the byte
// offset on invalid JSON; *out then holds the lines before the problem.
bool json_flatten(std::string_view json_object_text, std::vector<JsonLine>* out,
                  std::string* error);

// A number line's value; NaN for any other kind (null, a string, a missing value).
inline double json_number(const JsonLine& l) {
  return l.kind == 'n' ? std::strtod(l.value.c_str(), nullptr) : std::nan("");
}

// Calls f(keys, line) for every line, where keys[0..line.depth] is the line's path from the root.
template <typename F>
void json_walk(const std::vector<JsonLine>& lines, F&& f) {
  std::vector<std::string> keys;
  for (const JsonLine& l : lines) {
    keys.resize(l.depth + 1u);
    keys[l.depth] = l.key;
    f(keys, l);
  }
}

}  // namespace strata
