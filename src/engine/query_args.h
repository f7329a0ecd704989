// The arguments of a JSON query (engine_query's `args`): its top-level keys, read by name.
#pragma once
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/json/json_flat.h"
#include "core/store/trace_store.h"

namespace strata {

struct QueryArgs {
  std::vector<JsonLine> lines;

  // False, with *err set, when `text` is not JSON ("" reads as {}).
  bool parse(std::string_view text, std::string* err) {
    return json_flatten(text.empty() ? "{}" : text, &lines, err);
  }
  const JsonLine* get(std::string_view key) const {
    for (const JsonLine& l : lines)
      if (l.depth == 0 && l.key == key) return &l;
    return nullptr;
  }
  std::string text(std::string_view key, const char* fallback = "") const {
    const JsonLine* l = get(key);
    return l ? l->value : fallback;
  }
  double number(std::string_view key, double fallback) const {
    const JsonLine* l = get(key);
    return l && l->kind == 'n' ? std::strtod(l->value.c_str(), nullptr) : fallback;
  }
  bool flag(std::string_view key) const {
    const JsonLine* l = get(key);
    return l && l->kind == 'b' && l->value == "true";
  }
  // The numbers of array `key` (nested arrays flattened in order).
  std::vector<double> numbers(std::string_view key) const {
    std::vector<double> out;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].depth != 0 || lines[i].key != key) continue;
      for (size_t j = i + 1; j < lines.size() && lines[j].depth > 0; ++j)
        if (lines[j].kind == 'n') out.push_back(std::strtod(lines[j].value.c_str(), nullptr));
    }
    return out;
  }
};

// Slices of the whole trace the find reply counts matches in (the ruler's search marks): more
// than a wide screen has pixels, so zoomed out every mark lands on its own pixel.
constexpr size_t kFindBins = 4096;

// The string ids a search matches: those containing `text` case-insensitively, or matching it
// as an ECMAScript regular expression (case-insensitive). False, with why, for a bad pattern.
bool match_names(const TraceStore& s, const std::string& text, bool regex,
                 std::vector<uint8_t>* match, std::string* error);

}  // namespace strata
