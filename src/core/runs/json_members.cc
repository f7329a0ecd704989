#include "core/runs/json_members.h"

#include "core/base/text.h"

namespace strata {

namespace {

bool space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The index one past the string starting at text[i] (a quote), or npos.
size_t skip_string(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '"')
      return i + 1;
  }
  return std::string_view::npos;
}

// The index one past the value starting at text[i], or npos.
size_t skip_value(std::string_view text, size_t i) {
  if (i >= text.size()) return std::string_view::npos;
  if (text[i] == '"') return skip_string(text, i);
  if (text[i] == '{' || text[i] == '[') {
    int depth = 0;
    while (i < text.size()) {
      const char c = text[i];
      if (c == '"') {
        i = skip_string(text, i);
        if (i == std::string_view::npos) return i;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') --depth;
      ++i;
      if (depth == 0) return i;
    }
    return std::string_view::npos;
  }
  while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']' && !space(text[i]))
    ++i;
  return i;
}

constexpr std::string_view kJsonSpace = " \t\r\n";  // the characters space() accepts

}  // namespace

bool json_object_members(std::string_view text, std::vector<JsonMember>* out) {
  out->clear();
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && space(text[i])) ++i;
  };
  skip_space();
  if (i >= text.size() || text[i] != '{') return false;
  ++i;
  skip_space();
  if (i < text.size() && text[i] == '}') return true;
  while (i < text.size()) {
    if (text[i] != '"') return false;
    const size_t key_end = skip_string(text, i);
    if (key_end == std::string_view::npos) return false;
    std::string key(text.substr(i + 1, key_end - i - 2));
    i = key_end;
    skip_space();
    if (i >= text.size() || text[i] != ':') return false;
    ++i;
    skip_space();
    const size_t value_end = skip_value(text, i);
    if (value_end == std::string_view::npos || value_end == i) return false;
    out->push_back({std::move(key), text.substr(i, value_end - i)});
    i = value_end;
    skip_space();
    if (i < text.size() && text[i] == '}') return true;
    if (i >= text.size() || text[i] != ',') return false;
    ++i;
    skip_space();
  }
  return false;
}

std::string_view json_member(const std::vector<JsonMember>& members, std::string_view key,
                             std::string_view fallback) {
  for (const JsonMember& m : members)
    if (m.key == key) return m.value;
  return fallback;
}

std::string json_array_concat(std::string_view a, std::string_view b) {
  auto inner = [](std::string_view s) {
    s = trim(s, kJsonSpace);
    if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::string_view();
    return trim(s.substr(1, s.size() - 2), kJsonSpace);
  };
  const std::string_view x = inner(a), y = inner(b);
  std::string out = "[";
  out += x;
  if (!x.empty() && !y.empty()) out += ',';
  out += y;
  return out + "]";
}

}  // namespace strata
